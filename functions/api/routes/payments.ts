import type { Operation } from './operation.js';

/**
 * Stripe's events about candidates' payments, in each family that takes
 * `candidate_pays` bookings (FamilySpec `candidatePayments`). No bearer
 * token: the `Stripe-Signature` header, checked on the raw body, is the
 * credential.
 */
export const receiveStripeEvent = {
  operationId: 'receiveStripeEvent',
  method: 'POST',
  path: '/payments/stripe-events',
  handler: 'shared/stripe-events',
  auth: 'none',
  contract: 'project',
  upload: { maxBytes: 256 * 1024, types: ['application/json'] },
  stripe: true,
} as const satisfies Operation;

export const paymentOperations = { receiveStripeEvent };
