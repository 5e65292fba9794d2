import { clientKeys, getClient, type ClientAccount } from '../access/clients.js';
import { bookingCreated } from '../platform/metrics.js';
import { planCharge, type ChargePlan, type ChargeRequest, type Product } from '../commerce/charges.js';
import { emailPut } from '../events/outbox.js';
import { holdState, type Hold, type Holder } from '../inventory/holds.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { checkItem, itemAbsent, part, putItem, transact, type Part } from '../platform/transact.js';
import type { PayOption } from '../platform/booking-vocabulary.js';
import { leavesTimeToPay, paymentDueAt, type BookingKind, type BookingRecord, type PaymentDeadline } from './kind.js';
import { noticeOf, noticePart } from './calendar-notices.js';
import { bookingEventPart, bookingKeys, paymentDueOf } from './records.js';
import { scheduleParts } from './schedule.js';
import { changeLogParts } from './change-log.js';
import { linkWithdrawn } from './link-withdrawn.js';
import type { Attempt, BookingPlan } from './plan.js';

/**
 * Committing a booking of any kind, in one transaction: the family's plan
 * (./plan.ts: its unit taken, by a hold consumed or a free unit claimed, and
 * its own parts), the booking written and charged by its pay option
 * (commerce's `planCharge`), and `booking.created` recorded; a
 * candidate_pays booking also gets its payment deadline and the e-mail that
 * asks for payment, any other the candidate's confirmation and invitation.
 */

export interface BookingLinks {
  /** Where a candidate pays for a candidate_pays booking. */
  payment: (token: string) => string;
}

export interface Commit<B extends BookingRecord> {
  client: ClientAccount;
  bookingId: number;
  payOption: PayOption;
  product: Product;
  /** The kind's own fields, with the booking's times and who booked it. */
  fields: Omit<B, Exclude<keyof BookingRecord, 'start_at' | 'end_at' | 'booked_by'>>;
  /** The family's part of each attempt; may read (a counter its parts condition on), as it runs again on each retry. */
  plan: (at: Attempt) => BookingPlan | Promise<BookingPlan>;
  /** Balance alerts of the wallet charged, for families that send them. */
  alerts?: ChargeRequest['alerts'];
  links: BookingLinks;
  /** A candidate_pays booking's deadline when not the kind's (an anonymous booking through a public link: ./booking-link.ts). */
  deadline?: PaymentDeadline;
}

/** Unpaid bookings' deadline entries outlive their deadline a week, for the sweep to find late. */
const DUE_ENTRY_DAYS = 7;

export async function commitBooking<B extends BookingRecord, V>(
  deps: Deps,
  kind: BookingKind<B, V>,
  c: Commit<B>,
): Promise<{ booking: B; view: V; paymentToken?: string }> {
  const tz = deps.config.serviceTimeZone;
  // A wallet that changed since it was read has no domain meaning: the whole attempt runs again.
  return retryOnConflict(async () => {
    const now = deps.clock();
    const deadline = c.deadline ?? kind.deadline;
    if (c.payOption === 'candidate_pays' && !leavesTimeToPay(now, new Date(c.fields.start_at), deadline)) {
      throw new DomainError(
        'payment-window-closed',
        `A candidate_pays booking must be paid ${deadline.beforeStartHours} hours before the start; this slot starts too soon for the candidate to pay. Choose another pay option or a later slot.`,
      );
    }
    const dueAt = c.payOption === 'candidate_pays' ? paymentDueAt(now, new Date(c.fields.start_at), deadline).toISOString() : undefined;
    const planned = await planCharge(deps, {
      client: c.client,
      family: kind.family,
      product: c.product,
      payOption: c.payOption,
      bookingId: c.bookingId,
      paymentDueAt: dueAt,
      alerts: c.alerts,
    });
    // A candidate's booking (a public link's, an invite's) is the client's only while it is enabled, in the same transaction.
    const charge = c.fields.booked_by === 'Candidate' ? whileEnabled(deps, c.client, planned) : planned;
    const plan = await c.plan({ now, paymentDueAt: dueAt });
    const booking = {
      ...c.fields,
      ...plan.fields,
      id: c.bookingId,
      client_id: c.client.clientId,
      family: kind.family,
      booking_status: charge.bookingStatus,
      pay_status: charge.payStatus,
      pay_option: c.payOption,
      price: c.product.price,
      payment_token: charge.paymentToken,
      payment_url: charge.paymentToken ? c.links.payment(charge.paymentToken) : undefined,
      payment_due_at: dueAt,
      calendar_sequence: charge.bookingStatus === 'booked' ? 0 : undefined,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    } as B;
    const parts: Part[] = [
      ...plan.unitParts,
      ...(plan.extraParts ?? []),
      part(
        'booking',
        putItem(
          deps,
          {
            ...bookingKeys.booking(c.client.clientId, kind.family, c.bookingId),
            ...bookingKeys.byId(kind.family, c.bookingId),
            entity: 'booking',
            ...(booking as Record<string, unknown>),
          },
          itemAbsent,
        ),
      ),
      ...changeLogParts(deps, booking),
      ...scheduleParts(deps, booking),
      ...charge.parts,
      bookingEventPart(deps, kind, 'booking.created', booking),
    ];
    if (dueAt) {
      const ttl = toEpochSeconds(addSeconds(new Date(dueAt), DUE_ENTRY_DAYS * 86_400));
      parts.push(
        part(
          'payment due',
          putItem(
            deps,
            { ...paymentDueOf(booking), entity: 'payment-due', client_id: booking.client_id, booking_id: booking.id, due_at: dueAt, ttl },
            itemAbsent,
          ),
        ),
      );
    }
    if (charge.paymentToken) {
      const email = kind.paymentEmail(booking, { agency: c.client.name, paymentUrl: booking.payment_url!, timeZone: tz });
      parts.push(part('email', emailPut(deps, email)));
    }
    const notice = noticeOf('booking.created', booking);
    if (notice) parts.push(noticePart(deps, kind, notice, booking, { agency: c.client.name }));
    await transact(deps, parts, { ...plan.failures, ...charge.failures });
    bookingCreated(kind.family, c.payOption);
    return { booking, view: kind.view(booking, tz), paymentToken: charge.paymentToken };
  });
}

/**
 * A charge that holds only while the client is enabled: a
 * check of the client item, which also carries the charge's own check of it
 * (invoicing), as a transaction checks an item once.
 */
function whileEnabled(deps: Deps, client: ClientAccount, charge: ChargePlan): ChargePlan {
  const invoicing = charge.parts.some((p) => p.name === 'invoicing');
  const condition = invoicing
    ? { expression: 'attribute_not_exists(disabled_at) AND invoice_enabled = :yes', values: { ':yes': true } }
    : { expression: 'attribute_exists(pk) AND attribute_not_exists(disabled_at)' };
  const { invoicing: invoiceRefusal, ...failures } = charge.failures;
  return {
    ...charge,
    parts: [...charge.parts.filter((p) => p.name !== 'invoicing'), part('client enabled', checkItem(deps, clientKeys.item(client.clientId), condition))],
    failures: {
      ...failures,
      'client enabled': async (old) => {
        const now = await getClient(deps, client.clientId);
        if (!now || now.disabled) return linkWithdrawn();
        return typeof invoiceRefusal === 'function' ? invoiceRefusal(old) : invoiceRefusal;
      },
    },
  };
}

/** The hold, if it can be booked with now; otherwise its refusal is thrown. */
export function usableHold<H extends Hold>(hold: H | undefined, holder: Holder, now: Date): H {
  const refusal = holdRefusal(hold, holder, now);
  if (refusal) throw refusal;
  return hold!; // holdRefusal refuses an absent hold
}

/** Why a hold cannot be booked with now, if it cannot. Another holder's hold is one that does not exist. */
export function holdRefusal(hold: Hold | undefined, holder: Holder, now: Date): DomainError | undefined {
  switch (holdState(hold, holder, now)) {
    case 'not-found':
      return new DomainError('hold-not-found', 'No hold with that hold_hash; hold a slot first');
    case 'used':
      return new DomainError('hold-used', 'That hold has already been used for a booking');
    case 'expired':
      return new DomainError('hold-expired', 'That hold has expired; hold the slot again');
    case 'usable':
      return undefined;
  }
}
