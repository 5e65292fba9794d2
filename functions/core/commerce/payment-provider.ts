import { environment } from '../platform/config.js';

/** Which payment provider takes candidates' payments (PAYMENT_PROVIDER); apart from ./stripe.ts so that pages that only ask carry no SDK. */

export type PaymentProviderName = 'test' | 'stripe';

/** The configured provider, or none (the payment page then says online payment is not available). */
export function paymentProvider(env: NodeJS.ProcessEnv = environment()): PaymentProviderName | undefined {
  const name = env.PAYMENT_PROVIDER;
  if (name === undefined || name === '') return undefined;
  if (name !== 'test' && name !== 'stripe') throw new Error(`Environment variable PAYMENT_PROVIDER must be "test" or "stripe", got "${name}"`);
  return name;
}
