import { clientKeys, getClient } from '../access/clients.js';
import {
  clinicalBookings,
  pickCandidate,
  videoMeeting,
  type BookingItem,
  type BookingView,
  type CandidateInput,
  type NewBooking,
} from '../clinical-interview/bookings.js';
import { CLINICAL_FAMILY, loadCatalog, type BookingFamily, type Catalog, type InterviewType } from '../clinical-interview/catalog.js';
import { candidateSlots, slotUnit } from '../clinical-interview/slots.js';
import { consumeHoldParts, getHold, type Hold } from '../inventory/holds.js';
import { claimUnit, takeFromPool } from '../inventory/units.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId } from '../platform/ids.js';
import { queryFilteredPage } from '../platform/db.js';
import type { Page } from '../platform/pagination.js';
import { allOf, type Condition } from '../platform/transact.js';
import type { BookingStatus } from '../platform/booking-vocabulary.js';
import { linkPaymentDeadline, withLinkPlace } from './booking-page.js';
import { linkWithdrawn } from './link-withdrawn.js';
import { commitBooking, holdRefusal, usableHold, type BookingLinks } from './commit.js';
import type { BookingKind, BookingRecord } from './kind.js';
import { bookingKeys, getBookingItem as getItem, getBookingView } from './records.js';

/**
 * Bookings through the API and the booking link, and the caller's reads.
 * The engine (commit.ts, change.ts) does the writing; the clinical interview
 * family is the kind booked here today.
 */

export { PAY_OPTIONS, BOOKING_STATUSES, type PayOption, type BookingStatus } from '../platform/booking-vocabulary.js';
export type { PayStatus } from '../commerce/charges.js';
export {
  toBookingView,
  type Attendance,
  type BookingItem,
  type BookingView,
  type CandidateInput,
  type InterviewStatus,
  type NewBooking,
} from '../clinical-interview/bookings.js';
export { bookingKeys } from './records.js';
export type { BookingLinks } from './commit.js';

type ClinicalHold = Hold & { interview_type_id: number; interviewer_id: number; date: string; time: string; start_at: string; end_at: string };

/** The clinical booking's own fields at creation, for a slot of an interviewer. */
function interviewFields(
  deps: Deps,
  catalog: Catalog,
  type: InterviewType,
  slot: { interviewerId: number; date: string; time: string; startAt: string; endAt: string },
) {
  const interviewer = catalog.interviewers.find((i) => i.id === slot.interviewerId);
  if (!interviewer) throw new Error(`Slot refers to a missing interviewer ${slot.interviewerId}`);
  return {
    interview_type: { id: type.id, name: type.name },
    interviewer: { id: interviewer.id, name: interviewer.name },
    date: slot.date,
    time: slot.time,
    start_at: slot.startAt,
    end_at: slot.endAt,
    interview_status: 'scheduled' as const,
    attendance: 'pending' as const,
    video_meeting: videoMeeting(deps),
    interview_report_available: false,
  };
}

const productOf = (type: InterviewType) => ({ kind: 'interview_type' as const, id: type.id, name: type.name, price: type.price });

/** POST /bookings: books the caller's held slot, consuming the hold in the booking's transaction. */
export async function createBooking(
  deps: Deps,
  clientId: string,
  input: NewBooking,
  links: BookingLinks,
  family: BookingFamily = CLINICAL_FAMILY,
): Promise<BookingView> {
  const kind = clinicalBookings(family);
  const holder = { type: 'client', clientId } as const;
  const hold = usableHold(await getHold<ClinicalHold>(deps, family, input.hold_hash), holder, deps.clock());
  const [catalog, client] = await Promise.all([loadCatalog(deps), getClient(deps, clientId)]);
  const type = catalog.types.find((t) => t.id === hold.interview_type_id);
  if (!client || !type) throw new DomainError('hold-not-found', 'No hold with that hold_hash');
  const bookingId = await nextId(deps, family, 'booking');
  // A failed hold or unit: read the hold again to say why (used, expired, gone).
  const explain = async () => holdRefusal(await getHold(deps, family, hold.hold_hash), holder, deps.clock());
  const { view } = await commitBooking(deps, kind, {
    client,
    bookingId,
    payOption: input.pay_option,
    product: productOf(type),
    links,
    fields: {
      ...interviewFields(deps, catalog, type, {
        interviewerId: hold.interviewer_id,
        date: hold.date,
        time: hold.time,
        startAt: hold.start_at,
        endAt: hold.end_at,
      }),
      candidate: pickCandidate(input),
      agency_contact: { name: input.agency_contact_name ?? null, email: input.agency_contact_email ?? null },
      booked_by: 'Agency',
    },
    take: () => ({
      parts: consumeHoldParts(deps, kind.holds, holder, hold.hold_hash, slotUnit(family, hold.date, hold.time, hold.interviewer_id), bookingId),
      failures: { hold: explain, unit: explain },
    }),
  });
  return view;
}

/**
 * A candidate books a free slot through the agency's booking link: no hold,
 * candidate pays, and the link's limit of unpaid bookings holds.
 */
export async function createCandidateBooking(
  deps: Deps,
  clientId: string,
  input: CandidateInput & { interviewTypeId: number; date: string; time: string },
  links: BookingLinks,
  family: BookingFamily = CLINICAL_FAMILY,
): Promise<{ view: BookingView; paymentToken?: string }> {
  const kind = clinicalBookings(family);
  const [catalog, client] = await Promise.all([loadCatalog(deps), getClient(deps, clientId)]);
  if (!client) throw new DomainError('not-found', 'No such booking page');
  if (client.disabled) throw linkWithdrawn();
  const { type, slots } = candidateSlots(catalog, input.interviewTypeId, input.date, input.time, deps.config.serviceTimeZone, deps.clock());
  const bookingId = await nextId(deps, family, 'booking');
  const taken = new DomainError('slot-unavailable', 'That slot was just taken');
  const booked = await withLinkPlace(deps, clientId, family, (place) =>
    takeFromPool(
      deps,
      { units: slots, keyOf: (s) => slotUnit(family, s.date, s.time, s.interviewerId) },
      (slot) =>
        commitBooking(deps, kind, {
          client,
          bookingId,
          payOption: 'candidate_pays',
          product: productOf(type),
          links,
          deadline: linkPaymentDeadline(deps, kind.deadline),
          fields: {
            ...interviewFields(deps, catalog, type, { ...slot, startAt: slot.startAt.toISOString(), endAt: slot.endAt.toISOString() }),
            candidate: pickCandidate(input),
            agency_contact: { name: null, email: null },
            booked_by: 'Candidate',
          },
          take: ({ now, paymentDueAt }) => {
            const linkPlace = place.take({ bookingId, dueAt: paymentDueAt!, now });
            return {
              parts: [claimUnit(deps, slotUnit(family, slot.date, slot.time, slot.interviewerId), { bookingId, clientId }, now), ...linkPlace.parts],
              failures: { unit: taken, ...linkPlace.failures },
              fields: { link_place: place.name },
            };
          },
        }),
      () => new DomainError('slot-unavailable', `The slot on ${input.date} at ${input.time} is no longer available`),
      { lost: (err) => err === taken },
    ),
  );
  return { view: booked.value.view, paymentToken: booked.value.paymentToken };
}

export const getBookingItem = (deps: Deps, clientId: string, id: number, family: FamilyId = CLINICAL_FAMILY) =>
  getItem<BookingItem>(deps, clientId, id, family);

/** A booking of the caller's; another client's is not-found, never forbidden. */
export const getBooking = (deps: Deps, clientId: string, id: number, family: FamilyId = CLINICAL_FAMILY): Promise<BookingView> =>
  getBookingView(deps, clinicalBookings(family), clientId, id);

export interface BookingFilter {
  status?: BookingStatus;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The caller's bookings, newest first, filtered by status and interview date. */
export const listBookings = (deps: Deps, clientId: string, filter: BookingFilter, family: FamilyId = CLINICAL_FAMILY): Promise<Page<BookingView>> =>
  listOf(deps, clinicalBookings(family), clientId, filter);

/** Status, and the booking's wall-clock day (`date`) between `from` and `to`, inclusive. */
export const filterConditions = (filter: Pick<BookingFilter, 'status' | 'from' | 'to'>): Condition[] => [
  ...(filter.status ? [{ expression: 'booking_status = :status', values: { ':status': filter.status } }] : []),
  ...(filter.from ? [{ expression: '#date >= :from', names: { '#date': 'date' }, values: { ':from': filter.from } }] : []),
  ...(filter.to ? [{ expression: '#date <= :to', names: { '#date': 'date' }, values: { ':to': filter.to } }] : []),
];

/** A kind's bookings of the caller, newest first, filtered by status and date (and the kind's `more` conditions). */
export function listOf<B extends BookingRecord, V>(
  deps: Deps,
  kind: BookingKind<B, V>,
  clientId: string,
  filter: BookingFilter,
  more: Condition[] = [],
): Promise<Page<V>> {
  const conditions = [...more, ...filterConditions(filter)];
  return queryFilteredPage(
    deps,
    {
      pk: clientKeys.partition(clientId),
      prefix: bookingKeys.familyPrefix(kind.family),
      limit: filter.limit,
      cursor: filter.cursor,
      filter: conditions.length ? allOf(...conditions) : undefined,
    },
    (item) => kind.view(item as B, deps.config.serviceTimeZone),
  );
}
