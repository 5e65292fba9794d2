import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';

export { handler } from './least-function.js';

/**
 * A reference for the bundle figures (lib/bench/bundles.ts), not a function
 * of the product: the least function (least-function.ts) that also takes
 * payments as the product must. Stripe's official SDK (its client with
 * checkout sessions and refunds, and webhook signatures; bundled as the
 * functions are) and its key from Secrets Manager.
 */
const secrets = new SecretsManagerClient({});
const stripe = async () => new Stripe((await secrets.send(new GetSecretValueCommand({ SecretId: 'stripe' }))).SecretString!);

export const checkout = async () => (await stripe()).checkout.sessions.create({ mode: 'payment' });
export const refund = async () => (await stripe()).refunds.create({ payment_intent: 'pi' });
export const verify = async (body: string, signature: string) => (await stripe()).webhooks.constructEvent(body, signature, 'whsec');
