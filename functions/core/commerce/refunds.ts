import type { Deps } from '../platform/deps.js';
import { refundSettled } from '../platform/metrics.js';
import type { FamilyId } from '../platform/families.js';
import { part, transact, TransactionFailed, updateItem, type Condition, type Part } from '../platform/transact.js';
import { outboxPut } from '../events/outbox.js';
import { ledgerKeys, ledgerPut, newLedgerEntry, productFields, type LedgerEntry, type ProductRef, type RefundStatus } from './ledger.js';
import { CURRENCY } from './money.js';
import type { Stripe } from './stripe.js';

/**
 * Refunds of candidates' payments, which are never lost and never sent
 * twice. The refund is a ledger entry (`refund_status` pending) written in
 * the transaction that makes it owed (a cancellation, a late payment), with
 * a task on the refunds queue. The refunds worker sends it to the provider
 * with the entry's id as the Idempotency-Key (a retry is the same refund),
 * marks it `sent`; the provider's event marks it `settled`. A provider error
 * is retried with backoff, then kept in the dead-letter queue (an alarm).
 */

/** What the refunds worker is given. */
export interface RefundTask {
  id: string;
  ledger: { client_id: string; family: FamilyId; created_at: string; id: string };
  payment_intent: string;
  amount: number;
  booking_id: number;
}

export interface OwedRefund {
  client_id: string;
  family: FamilyId;
  booking_id: number;
  product: ProductRef;
  /** Minor units (pence). */
  amount: number;
  /** The payment being refunded (Stripe's PaymentIntent, or the test provider's reference). */
  providerReference: string;
  note?: string;
}

/** The parts that owe a candidate a refund: its ledger entry, pending, and the task that sends it. */
export function refundOwedParts(deps: Deps, owed: OwedRefund): Part[] {
  const entry = newLedgerEntry(deps, {
    client_id: owed.client_id,
    family: owed.family,
    kind: 'refund',
    amount: -owed.amount,
    unit: CURRENCY,
    balance_after: null,
    booking_id: owed.booking_id,
    ...productFields(owed.product),
    pay_option: 'candidate_pays',
    provider_reference: owed.providerReference,
    refund_status: 'pending',
    ...(owed.note ? { note: owed.note } : {}),
  });
  const task: RefundTask = {
    id: entry.id,
    ledger: { client_id: entry.client_id, family: entry.family, created_at: entry.created_at, id: entry.id },
    payment_intent: owed.providerReference,
    amount: owed.amount,
    booking_id: owed.booking_id,
  };
  return [part('refund ledger', ledgerPut(deps, entry)), part('refund task', outboxPut(deps, 'refund', entry.id, task))];
}

/** The ledger entry of a candidate's payment, put with the booking's confirmation. */
export function candidatePaymentPart(deps: Deps, paid: Omit<OwedRefund, 'note'>): Part {
  const entry: LedgerEntry = newLedgerEntry(deps, {
    client_id: paid.client_id,
    family: paid.family,
    kind: 'candidate_payment',
    amount: paid.amount,
    unit: CURRENCY,
    balance_after: null,
    booking_id: paid.booking_id,
    ...productFields(paid.product),
    pay_option: 'candidate_pays',
    provider_reference: paid.providerReference,
  });
  return part('candidate payment ledger', ledgerPut(deps, entry));
}

/** Where a refund may move from: forward only, so a late or repeated report never moves it back. */
const MOVES_FROM: Record<RefundStatus, RefundStatus[]> = { pending: [], sent: ['pending'], settled: ['pending', 'sent'], failed: ['pending', 'sent'] };
/** Named condition: the refund may move to `status`. */
const refundBefore = (status: RefundStatus): Condition => ({
  expression: 'refund_status IN (' + MOVES_FROM[status].map((_, i) => `:s${i}`).join(', ') + ')',
  values: Object.fromEntries(MOVES_FROM[status].map((s, i) => [`:s${i}`, s])),
});

/** Moves a refund entry on; false when it was there already. */
async function markRefund(deps: Deps, ledger: RefundTask['ledger'], status: RefundStatus, providerRefundId?: string): Promise<boolean> {
  const key = ledgerKeys.entry(ledger.client_id, ledger.family, ledger.created_at, ledger.id);
  try {
    await transact(deps, [
      part(
        'refund ledger',
        updateItem(
          deps,
          { pk: key.pk, sk: key.sk },
          { set: { refund_status: status, ...(providerRefundId ? { provider_refund_id: providerRefundId } : {}) } },
          refundBefore(status),
        ),
      ),
    ]);
    return true;
  } catch (err) {
    if (err instanceof TransactionFailed && err.has('refund ledger')) return false;
    throw err;
  }
}

/** A payment the test provider took (`test_…`): its refunds settle at once, with no one to call. */
export const isTestPayment = (providerReference: string): boolean => providerReference.startsWith('test_');

/**
 * Sends one refund to the provider. Safe to run again for the same task: the
 * Idempotency-Key makes Stripe answer with the refund it already made, and a
 * refund already marked is left as it is. A provider error is thrown, for
 * the queue to retry.
 */
export async function sendRefund(deps: Deps, task: RefundTask, stripe: () => Promise<Stripe>): Promise<void> {
  if (isTestPayment(task.payment_intent)) {
    await markRefund(deps, task.ledger, 'settled', `test_refund_${task.id}`);
    return;
  }
  const refund = await (
    await stripe()
  ).refunds.create(
    {
      payment_intent: task.payment_intent,
      amount: task.amount,
      metadata: {
        family: task.ledger.family,
        client_id: task.ledger.client_id,
        ledger_entry_id: task.ledger.id,
        ledger_created_at: task.ledger.created_at,
        booking_id: String(task.booking_id),
      },
    },
    { idempotencyKey: task.id },
  );
  await markRefund(deps, task.ledger, refund.status === 'succeeded' ? 'settled' : 'sent', refund.id);
}

/** What Stripe's refund statuses mean for ours; the others (pending, requires_action) change nothing yet. */
const OUTCOMES: Partial<Record<string, RefundStatus>> = { succeeded: 'settled', failed: 'failed', canceled: 'failed' };

/**
 * Stripe says how a refund ended (`refund.updated`, `refund.failed`,
 * `charge.refunded`): its entry is settled, or failed. Refunds we did not
 * make are ignored. Resolves to the status written, if any.
 */
export async function settleRefund(deps: Deps, family: FamilyId, refund: Pick<Stripe.Refund, 'id' | 'status' | 'metadata'>): Promise<RefundStatus | undefined> {
  const m = refund.metadata ?? {};
  const outcome = OUTCOMES[refund.status ?? ''];
  if (!outcome || m.family !== family || !m.client_id || !m.ledger_entry_id || !m.ledger_created_at) return undefined;
  if (!(await markRefund(deps, { client_id: m.client_id, family, created_at: m.ledger_created_at, id: m.ledger_entry_id }, outcome, refund.id)))
    return undefined;
  refundSettled(family, outcome === 'failed' ? 'failed' : 'settled');
  return outcome;
}
