import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { randomToken } from '../platform/secrets.js';
import { itemAbsent, putItem, updateItem, type Condition, type TransactItem } from '../platform/transact.js';
import type { Money } from './money.js';

/**
 * What a candidate pays through an e-mailed link: one request per booking,
 * reached by an unguessable token. A request may carry a deadline; after it
 * the request takes no payment, whether or not the expiry sweep has run.
 */

export type PaymentRequestStatus = 'pending' | 'paid' | 'cancelled' | 'refunded';

export interface PaymentRequest {
  token: string;
  client_id: string;
  family: FamilyId;
  booking_id: number;
  amount: Money;
  status: PaymentRequestStatus;
  created_at: string;
  /** After this instant the request takes no payment (absent: no deadline). */
  due_at?: string;
  paid_at?: string;
  /** The provider's id of the payment (Stripe's PaymentIntent; the test provider's `test_…`). */
  provider_reference?: string;
  /** The open Stripe Checkout Session, while there is one; cleared when Stripe says it expired. */
  checkout?: CheckoutSession;
  /** How many Checkout Sessions were started: the next one's Idempotency-Key. */
  checkout_count?: number;
  /** A payment that arrived after the request stopped taking payment: recorded and refunded in full. */
  late_payment?: { provider_reference: string; at: string };
}

export interface CheckoutSession {
  id: string;
  url: string;
  /** When Stripe closes it (ISO instant). */
  expires_at: string;
}

/** The request's id as the provider sees it (metadata): a digest of its token, so the token itself never leaves us. */
export const paymentRequestId = (token: string): string => `pr_${createHash('sha256').update(token).digest('hex').slice(0, 24)}`;

const PAYREQ = TABLE_KEYS.paymentRequest;
export const paymentRequestKeys = {
  request: (family: FamilyId, token: string) => ({ pk: key(PAYREQ.pk, family, token), sk: PAYREQ.sk.paymentRequest }),
};

/** Named condition: the request still waits for payment. */
const awaitingPayment: Condition = { expression: '#status = :pending', names: { '#status': 'status' }, values: { ':pending': 'pending' } };

/** Named condition: the request waits for payment and its deadline (if any) has not passed. */
export const payableAt = (now: string): Condition => ({
  expression: '#status = :pending AND (attribute_not_exists(due_at) OR due_at > :now)',
  names: { '#status': 'status' },
  values: { ':pending': 'pending', ':now': now },
});

/** Can the request take a payment now? The same rule as `payableAt`, on a read. */
export const isPayable = (request: Pick<PaymentRequest, 'status' | 'due_at'>, now: Date): boolean =>
  request.status === 'pending' && (!request.due_at || request.due_at > now.toISOString());

export function newPaymentRequest(deps: Deps, input: Omit<PaymentRequest, 'token' | 'status' | 'created_at'>): PaymentRequest {
  return { token: randomToken(24), status: 'pending', created_at: deps.clock().toISOString(), ...input };
}

export const paymentRequestPut = (deps: Deps, request: PaymentRequest): TransactItem =>
  putItem(deps, { ...paymentRequestKeys.request(request.family, request.token), entity: 'payment-request', ...request }, itemAbsent);

/** The request is paid: only while payable. */
export const paymentRequestPaid = (deps: Deps, family: FamilyId, token: string, providerReference: string): TransactItem => {
  const now = deps.clock().toISOString();
  return updateItem(
    deps,
    paymentRequestKeys.request(family, token),
    { set: { status: 'paid', paid_at: now, provider_reference: providerReference } },
    payableAt(now),
  );
};

/** The request stops taking payment (its booking was cancelled or its deadline passed). */
export const paymentRequestCancelled = (deps: Deps, family: FamilyId, token: string): TransactItem =>
  updateItem(deps, paymentRequestKeys.request(family, token), { set: { status: 'cancelled', cancelled_at: deps.clock().toISOString() } }, awaitingPayment);

/** A paid request is refunded through the provider. */
export const paymentRequestRefunded = (deps: Deps, family: FamilyId, token: string): TransactItem =>
  updateItem(
    deps,
    paymentRequestKeys.request(family, token),
    { set: { status: 'refunded', refunded_at: deps.clock().toISOString() } },
    { expression: '#status = :paid', names: { '#status': 'status' }, values: { ':paid': 'paid' } },
  );

export async function getPaymentRequest(deps: Deps, family: FamilyId, token: string): Promise<PaymentRequest | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: paymentRequestKeys.request(family, token), ConsistentRead: true }));
  return Item as PaymentRequest | undefined;
}
