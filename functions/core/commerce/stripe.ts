import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { MissingConfigError, environment } from '../platform/config.js';
import { withoutSdkLogging } from '../platform/sdk.js';
export { paymentProvider, type PaymentProviderName } from './payment-provider.js';

/**
 * Stripe, the payment provider of `candidate_pays` (PAYMENT_PROVIDER=stripe),
 * through its official SDK only. Its key and the signing secret of its
 * events come from the environment locally (STRIPE_SECRET_KEY,
 * STRIPE_WEBHOOK_SECRET) and from Secrets Manager in the cloud
 * (STRIPE_SECRET_ARN, STRIPE_WEBHOOK_SECRET_ARN: the secrets' ARNs, never
 * their values, are in the function's configuration), read once per
 * container. STRIPE_API_URL points the SDK at a Stripe-compatible server
 * (a fake in tests); unset, it talks to Stripe.
 */

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** host, port and protocol of a Stripe-compatible API, or undefined for Stripe itself. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

/**
 * How long a caller waits for Stripe. Stripe's own default is 80 s; a page
 * must answer within its function's 10 s, retries included (3 s, one
 * retry), while the refunds worker has 40 s and retries from its queue too.
 */
const BUDGETS = { page: { timeout: 3_000, maxNetworkRetries: 1 }, worker: { timeout: 10_000, maxNetworkRetries: 2 } } as const;

function apiOf(raw: string | undefined): StripeSettings['api'] {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Environment variable STRIPE_API_URL must be a URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Environment variable STRIPE_API_URL must be an http or https URL, got "${raw}"`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

async function secretOf(env: NodeJS.ProcessEnv, valueName: string, arnName: string): Promise<string> {
  const value = env[valueName];
  if (value) return value;
  const arn = env[arnName];
  if (!arn) throw new MissingConfigError(`${valueName} (or ${arnName})`);
  const client = withoutSdkLogging(new SecretsManagerClient({}));
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`The secret ${arnName} names has no text value`);
  return SecretString.trim();
}

let settings: Promise<StripeSettings> | undefined;

/** The Stripe settings, read once per container; a failed read is tried again on the next call. */
export function stripeSettings(env: NodeJS.ProcessEnv = environment()): Promise<StripeSettings> {
  settings ??= (async () => ({
    secretKey: await secretOf(env, 'STRIPE_SECRET_KEY', 'STRIPE_SECRET_ARN'),
    webhookSecret: await secretOf(env, 'STRIPE_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET_ARN'),
    api: apiOf(env.STRIPE_API_URL),
  }))().catch((err: unknown) => {
    settings = undefined;
    throw err;
  });
  return settings;
}

const clients = new Map<string, Stripe>();

/** The SDK client for these settings and caller (one per key, server and budget). The SDK retries network failures and 5xx with the same Idempotency-Key. */
export function stripeClient(s: StripeSettings, budget: keyof typeof BUDGETS = 'page'): Stripe {
  const cacheKey = `${s.secretKey}@${s.api ? `${s.api.protocol}://${s.api.host}:${s.api.port}` : 'stripe'}#${budget}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new Stripe(s.secretKey, { ...BUDGETS[budget], telemetry: false, ...(s.api ?? {}) });
    clients.set(cacheKey, client);
  }
  return client;
}

export type { Stripe };
