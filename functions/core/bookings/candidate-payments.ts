import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ProductRef } from '../commerce/ledger.js';
import { formatMoney } from '../commerce/charges.js';
import { getPaymentRequest, isPayable, paymentRequestId, paymentRequestKeys } from '../commerce/payment-requests.js';
import { candidatePaymentPart, refundOwedParts, settleRefund } from '../commerce/refunds.js';
import type { Stripe } from '../commerce/stripe.js';
import { emailPut } from '../events/outbox.js';
import { latePaymentRefunded } from '../messaging/email-templates.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { readableTime } from '../platform/time.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import { agencyName } from './invitations.js';
import { confirmPayment } from './change.js';
import type { BookingKind, BookingRecord } from './kind.js';
import { findBookingIn } from './records.js';

/**
 * What Stripe's events do to a family's bookings (`POST
 * /payments/stripe-events`, whose signature the edge has checked). A paid
 * Checkout Session confirms its booking exactly as the test provider does
 * (status, the candidate's payment in the ledger with the PaymentIntent as
 * `provider_reference`, the confirmation e-mail, the booking event); a
 * payment that arrives after the booking stopped taking payment is recorded
 * and refunded in full, and the candidate told. Each event is applied once:
 * its id is recorded in the same transaction as its effect.
 */

export type EventOutcome = { outcome: 'applied' | 'already-applied' | 'ignored'; why?: string };

const EVENT_RETENTION_SECONDS = 30 * 86_400;
const STRIPE_EVENT = TABLE_KEYS.stripeEvent;
const eventKey = (family: FamilyId, eventId: string) => ({ pk: key(STRIPE_EVENT.pk, family, eventId), sk: STRIPE_EVENT.sk.event });

/** The event is recorded: the part fails if it was already. */
const eventRecorded = (deps: Deps, family: FamilyId, event: Pick<Stripe.Event, 'id' | 'type'>): Part =>
  part(
    'stripe event',
    putItem(deps, { ...eventKey(family, event.id), entity: 'stripe-event', type: event.type, applied_at: deps.clock().toISOString(), ttl: toEpochSeconds(addSeconds(deps.clock(), EVENT_RETENTION_SECONDS)) }, itemAbsent),
  );

async function seenBefore(deps: Deps, family: FamilyId, eventId: string): Promise<boolean> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: eventKey(family, eventId), ConsistentRead: true }));
  return Item !== undefined;
}

const ignored = (why: string): EventOutcome => ({ outcome: 'ignored', why });
const productRef = ({ kind, id, name }: ProductRef): ProductRef => ({ kind, id, name });

export async function applyStripeEvent<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(deps, kind, event, event.data.object);
    case 'checkout.session.expired':
      return sessionExpired(deps, kind, event.data.object);
    case 'refund.created':
    case 'refund.updated':
      return (await settleRefund(deps, kind.family, event.data.object)) ? { outcome: 'applied' } : ignored('not a settled refund of ours');
    case 'charge.refunded': {
      const refunds = event.data.object.refunds?.data ?? [];
      const settled = await Promise.all(refunds.map((r) => settleRefund(deps, kind.family, r)));
      return settled.some(Boolean) ? { outcome: 'applied' } : ignored('no settled refund of ours');
    }
    default:
      return ignored(`${event.type} is not an event this API acts on`);
  }
}

/** The booking and payment request a session was made for, if it is one of this family's. */
async function sessionTarget<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, session: Stripe.Checkout.Session) {
  const m = session.metadata ?? {};
  if (m.family !== kind.family) return undefined;
  const bookingId = Number(m.booking_id);
  if (!Number.isSafeInteger(bookingId) || bookingId <= 0) return undefined;
  const booking = await findBookingIn<B>(deps, kind.family, bookingId).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === 'not-found') return undefined;
    throw err;
  });
  const token = booking?.payment_token;
  if (!booking || !token || paymentRequestId(token) !== m.payment_request) return undefined;
  const request = await getPaymentRequest(deps, kind.family, token);
  return request && { booking, request, token };
}

async function sessionPaid<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, event: Stripe.Event, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  if (session.payment_status !== 'paid') return ignored('not paid yet');
  const target = await sessionTarget(deps, kind, session);
  if (!target) return ignored('not a session of this family');
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!paymentIntent) return ignored('no PaymentIntent');
  if (await seenBefore(deps, kind.family, event.id)) return { outcome: 'already-applied' };
  const { booking, request, token } = target;
  if (request.status === 'paid' || request.late_payment) return { outcome: 'already-applied' };

  if (isPayable(request, deps.clock()) && booking.booking_status === 'pending_payment') {
    try {
      await confirmPayment(deps, kind, token, paymentIntent, [eventRecorded(deps, kind.family, event)]);
      return { outcome: 'applied' };
    } catch (err) {
      // It stopped taking payment meanwhile (its deadline, a cancellation): the payment is late after all.
      if (!(err instanceof DomainError && err.code === 'invalid-state')) throw err;
    }
  }
  return latePayment(deps, kind, event, booking, token, paymentIntent);
}

/** Paid after the booking stopped taking payment: recorded, refunded in full, and the candidate told. The booking stays as it is. */
async function latePayment<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, event: Stripe.Event, booking: B, token: string, paymentIntent: string): Promise<EventOutcome> {
  const request = (await getPaymentRequest(deps, kind.family, token))!;
  const paid = { client_id: booking.client_id, family: kind.family, booking_id: booking.id, product: productRef(kind.productOf(booking)), amount: request.amount.amount, providerReference: paymentIntent };
  const attendee = kind.calendarEntry(booking).attendee;
  const mail = latePaymentRefunded({
    candidateName: attendee.name,
    agency: await agencyName(deps, booking.client_id),
    what: paid.product.name,
    when: readableTime(booking.start_at, deps.config.serviceTimeZone),
    amount: formatMoney(request.amount),
  });
  try {
    await transact(deps, [
      part(
        'payment request',
        updateItem(
          deps,
          paymentRequestKeys.request(kind.family, token),
          { set: { late_payment: { provider_reference: paymentIntent, at: deps.clock().toISOString() } } },
          { expression: '#status <> :paid AND attribute_not_exists(late_payment)', names: { '#status': 'status' }, values: { ':paid': 'paid' } },
        ),
      ),
      candidatePaymentPart(deps, paid),
      ...refundOwedParts(deps, { ...paid, note: 'Paid after the booking stopped taking payment' }),
      part('email', emailPut(deps, { ...mail, to: attendee.email })),
      eventRecorded(deps, kind.family, event),
    ]);
    return { outcome: 'applied' };
  } catch (err) {
    if (err instanceof TransactionFailed && (err.has('payment request') || err.has('stripe event'))) return { outcome: 'already-applied' };
    throw err;
  }
}

/** Stripe closed a session unpaid: the page makes a new one next time. */
async function sessionExpired<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const target = await sessionTarget(deps, kind, session);
  if (!target || target.request.checkout?.id !== session.id) return ignored('not the open session of a payment');
  try {
    await transact(deps, [
      part(
        'payment request',
        updateItem(deps, paymentRequestKeys.request(kind.family, target.token), { remove: ['checkout'] }, { expression: 'checkout.id = :session', values: { ':session': session.id } }),
      ),
    ]);
    return { outcome: 'applied' };
  } catch (err) {
    if (err instanceof TransactionFailed && err.has('payment request')) return { outcome: 'already-applied' };
    throw err;
  }
}
