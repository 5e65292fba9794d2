import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { paymentSettled } from '../platform/metrics.js';
import { productRef, type RefundStatus } from '../commerce/ledger.js';
import { formatMoney } from '../commerce/charges.js';
import { getPaymentRequest, isPayable, paymentRequestId, paymentRequestKeys, type PaymentRequest } from '../commerce/payment-requests.js';
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
import { itemAbsent, itemExists, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import { agencyName } from './calendar-notices.js';
import { confirmPayment } from './change.js';
import type { BookingRecord, ChangingKind } from './kind.js';
import { findBookingIn } from './records.js';

/**
 * What Stripe's events do to a family's bookings (`POST
 * /payments/stripe-events`, whose signature the edge has checked). A paid
 * Checkout Session confirms its booking exactly as the test provider does
 * (status, the candidate's payment in the ledger with the PaymentIntent as
 * `provider_reference`, the confirmation e-mail, the booking event); a
 * payment that arrives after the booking stopped taking payment is recorded
 * and refunded in full, and the candidate told, as is a second payment of a
 * booking already paid (two sessions). Each event is applied once, and each
 * payment (PaymentIntent) once: both are recorded in the same transaction as
 * their effect.
 */

export type EventOutcome = { outcome: 'applied' | 'already-applied' | 'ignored'; why?: string };

const EVENT_RETENTION_SECONDS = 30 * 86_400;
const STRIPE_EVENT = TABLE_KEYS.stripeEvent;
const eventKey = (family: FamilyId, eventId: string) => ({ pk: key(STRIPE_EVENT.pk, family, eventId), sk: STRIPE_EVENT.sk.event });

/** The event is recorded: the part fails if it was already. */
const eventRecorded = (deps: Deps, family: FamilyId, event: Pick<Stripe.Event, 'id' | 'type'>): Part =>
  part(
    'stripe event',
    putItem(
      deps,
      {
        ...eventKey(family, event.id),
        entity: 'stripe-event',
        type: event.type,
        applied_at: deps.clock().toISOString(),
        ttl: toEpochSeconds(addSeconds(deps.clock(), EVENT_RETENTION_SECONDS)),
      },
      itemAbsent,
    ),
  );

const STRIPE_PAYMENT = TABLE_KEYS.stripePayment;
const paymentKey = (family: FamilyId, paymentIntent: string) => ({ pk: key(STRIPE_PAYMENT.pk, family, paymentIntent), sk: STRIPE_PAYMENT.sk.payment });

/** The payment is recorded (confirmed a booking, or owed back): the part fails if it was already. Kept as long as the ledger. */
const paymentRecordedPart = (deps: Deps, family: FamilyId, paymentIntent: string): Part =>
  part(
    'stripe payment',
    putItem(deps, { ...paymentKey(family, paymentIntent), entity: 'stripe-payment', recorded_at: deps.clock().toISOString() }, itemAbsent),
  );

/** Was this event, or this payment, recorded already? */
async function recorded(deps: Deps, key: { pk: string; sk: string }): Promise<boolean> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  return Item !== undefined;
}

const ignored = (why: string): EventOutcome => ({ outcome: 'ignored', why });

/** A refund that failed at Stripe needs a person: the candidate has not got their money (the events handler logs it as an error). */
const refundOutcome = (written: (RefundStatus | undefined)[]): EventOutcome =>
  written.includes('failed')
    ? { outcome: 'applied', why: 'refund failed' }
    : written.some(Boolean)
      ? { outcome: 'applied' }
      : ignored('no refund of ours moved');

export async function applyStripeEvent<B extends BookingRecord>(deps: Deps, kind: ChangingKind<B>, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(deps, kind, event, event.data.object);
    case 'checkout.session.expired':
      paymentSettled(kind.family, 'expired');
      return sessionExpired(deps, kind, event.data.object);
    case 'checkout.session.async_payment_failed':
      // Nothing to change (the session stays open until it expires), but a failing payment method is worth a look.
      paymentSettled(kind.family, 'failed');
      return ignored(`${event.type} is not an event this API acts on`);
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return refundOutcome([await settleRefund(deps, kind.family, event.data.object)]);
    case 'charge.refunded':
      return refundOutcome(await Promise.all((event.data.object.refunds?.data ?? []).map((r) => settleRefund(deps, kind.family, r))));
    default:
      return ignored(`${event.type} is not an event this API acts on`);
  }
}

/** The booking and payment request a session was made for, if it is one of this family's. */
async function sessionTarget<B extends BookingRecord>(deps: Deps, kind: ChangingKind<B>, session: Stripe.Checkout.Session) {
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

async function sessionPaid<B extends BookingRecord>(
  deps: Deps,
  kind: ChangingKind<B>,
  event: Stripe.Event,
  session: Stripe.Checkout.Session,
): Promise<EventOutcome> {
  if (session.payment_status !== 'paid') return ignored('not paid yet');
  const target = await sessionTarget(deps, kind, session);
  if (!target) return ignored('not a session of this family');
  const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!paymentIntent) return ignored('no PaymentIntent');
  if (await recorded(deps, eventKey(kind.family, event.id))) return { outcome: 'already-applied' };
  // Decided per payment, not per request: a candidate who pays in two sessions has paid twice, and the second is owed back.
  if (paymentIntent === target.request.provider_reference || (await recorded(deps, paymentKey(kind.family, paymentIntent))))
    return { outcome: 'already-applied' };
  const { booking, token } = target;
  let request = target.request;

  if (isPayable(request, deps.clock()) && booking.booking_status === 'pending_payment') {
    try {
      await confirmPayment(deps, kind, token, paymentIntent, [eventRecorded(deps, kind.family, event), paymentRecordedPart(deps, kind.family, paymentIntent)]);
    } catch (err) {
      // It stopped taking payment meanwhile (its deadline, a cancellation), or this very payment was recorded by a racing delivery.
      if (err instanceof TransactionFailed && err.has('stripe payment')) return { outcome: 'already-applied' };
      if (!(err instanceof DomainError && err.code === 'invalid-state')) throw err;
    }
    // As it is now. confirmPayment also answers, writing nothing, when another payment confirmed the booking first: then this one is a second payment.
    request = (await getPaymentRequest(deps, kind.family, token))!;
    if (request.provider_reference === paymentIntent) return { outcome: 'applied' };
  }
  return paymentNotKept(deps, kind, event, booking, token, paymentIntent, request);
}

/**
 * A payment the booking cannot keep: it arrived after the booking stopped
 * taking payment, or the booking was already paid (a second session). It is
 * recorded, refunded in full, and the candidate told why. The booking stays
 * as it is. Each payment once: its record is put in the same transaction.
 */
async function paymentNotKept<B extends BookingRecord>(
  deps: Deps,
  kind: ChangingKind<B>,
  event: Stripe.Event,
  booking: B,
  token: string,
  paymentIntent: string,
  request: PaymentRequest,
): Promise<EventOutcome> {
  const paid = {
    client_id: booking.client_id,
    family: kind.family,
    booking_id: booking.id,
    product: productRef(kind.productOf(booking)),
    amount: request.amount.amount,
    providerReference: paymentIntent,
  };
  const attendee = kind.calendarEntry(booking).attendee;
  const alreadyPaid = request.status === 'paid';
  const mail = latePaymentRefunded({
    candidateName: attendee.name,
    agency: await agencyName(deps, booking.client_id),
    what: paid.product.name,
    when: readableTime(booking.start_at, deps.config.serviceTimeZone),
    amount: formatMoney(request.amount),
    reason: alreadyPaid ? 'paid-twice' : 'too-late',
  });
  try {
    await transact(deps, [
      paymentRecordedPart(deps, kind.family, paymentIntent),
      // The page says the money is on its way back; a booking already paid keeps saying it is paid.
      ...(alreadyPaid
        ? []
        : [
            part(
              'payment request',
              updateItem(
                deps,
                paymentRequestKeys.request(kind.family, token),
                { set: { late_payment: { provider_reference: paymentIntent, at: deps.clock().toISOString() } } },
                itemExists,
              ),
            ),
          ]),
      candidatePaymentPart(deps, paid),
      ...refundOwedParts(deps, { ...paid, note: alreadyPaid ? 'Paid a second time' : 'Paid after the booking stopped taking payment' }),
      part('email', emailPut(deps, { ...mail, to: attendee.email })),
      eventRecorded(deps, kind.family, event),
    ]);
    return { outcome: 'applied' };
  } catch (err) {
    if (err instanceof TransactionFailed && (err.has('stripe payment') || err.has('stripe event'))) return { outcome: 'already-applied' };
    throw err;
  }
}

/** Stripe closed a session unpaid: the page makes a new one next time. */
async function sessionExpired<B extends BookingRecord>(deps: Deps, kind: ChangingKind<B>, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const target = await sessionTarget(deps, kind, session);
  if (!target || target.request.checkout?.id !== session.id) return ignored('not the open session of a payment');
  try {
    await transact(deps, [
      part(
        'payment request',
        updateItem(
          deps,
          paymentRequestKeys.request(kind.family, target.token),
          { remove: ['checkout'] },
          { expression: 'checkout.id = :session', values: { ':session': session.id } },
        ),
      ),
    ]);
    return { outcome: 'applied' };
  } catch (err) {
    if (err instanceof TransactionFailed && err.has('payment request')) return { outcome: 'already-applied' };
    throw err;
  }
}
