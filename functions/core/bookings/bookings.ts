import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomInt } from 'node:crypto';
import { CLINICAL_FAMILY, loadCatalog, type BookingFamily, type Catalog } from '../clinical-interview/catalog.js';
import { clientKeys, getClient, type ClientAccount } from '../access/clients.js';
import { deleteItem, itemAbsent, part, putItem, transact, updateItem, type Condition, type Failure, type Part } from '../platform/transact.js';
import { formatMoney, planCharge } from '../commerce/charges.js';
import type { Deps } from '../platform/deps.js';
import { bookingPaymentLink } from '../messaging/email-templates.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { getHold, holdKeys, SLOT_FREE, type HoldRecord } from '../inventory/holds.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, GSI1_KEYS, key, TABLE_KEYS } from '../platform/key-registry.js';
import type { Money } from '../commerce/money.js';
import { emailPut, eventPut } from '../events/outbox.js';
import { decodeCursor, encodeCursor, pageKey, type Page } from '../platform/pagination.js';
import { randomToken } from '../platform/secrets.js';
import { formatWithOffset } from '../platform/time.js';
import { retryOnConflict } from '../platform/db.js';

/** Clinical interview bookings: creation with the four pay options, reads and lists. */

export { PAY_OPTIONS, BOOKING_STATUSES, type PayOption, type BookingStatus } from '../platform/vocabulary.js';
import type { BookingStatus, PayOption } from '../platform/vocabulary.js';

export type InterviewStatus = 'scheduled' | 'completed' | 'cancelled';
export type Attendance = 'pending' | 'attended' | 'no_show';
export type { PayStatus } from '../commerce/charges.js';
import type { PayStatus } from '../commerce/charges.js';

export interface CandidateInput {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_role: string;
  nmc_number: string;
}

export interface NewBooking extends CandidateInput {
  hold_hash: string;
  pay_option: PayOption;
  agency_contact_name?: string;
  agency_contact_email?: string;
}

export interface BookingItem {
  id: number;
  client_id: string;
  family: BookingFamily;
  candidate: CandidateInput;
  agency_contact: { name: string | null; email: string | null };
  interview_type: { id: number; name: string };
  interviewer: { id: number; name: string };
  date: string;
  time: string;
  start_at: string;
  end_at: string;
  booking_status: BookingStatus;
  interview_status: InterviewStatus;
  attendance: Attendance;
  pay_status: PayStatus;
  pay_option: PayOption;
  booked_by: 'Agency' | 'Candidate';
  video_meeting: { meeting_id: string; join_link: string; password: string };
  interview_report_available: boolean;
  report_key?: string;
  price: Money;
  payment_token?: string;
  created_at: string;
  updated_at: string;
}

const { client: CLIENT } = TABLE_KEYS;
const BY_ID = GSI1_KEYS.bookingById;
export const bookingKeys = {
  /** Every booking of one family in the client's partition. */
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.booking, family),
  booking: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.booking, family, padId(id)) }),
  /** Operators find a booking by family and id alone through the index. */
  byId: (family: FamilyId, id: number) => ({ gsi1pk: key(BY_ID.pk, family, id), gsi1sk: BY_ID.sk.booking }),
};

export function toBookingView(b: BookingItem, timeZone: string) {
  return {
    id: b.id,
    candidate: {
      name: `${b.candidate.first_name} ${b.candidate.last_name}`,
      email: b.candidate.email,
      phone: b.candidate.phone,
      job_role: b.candidate.job_role,
      nmc_number: b.candidate.nmc_number,
    },
    interview_type: b.interview_type,
    interviewer: b.interviewer,
    start_date: formatWithOffset(b.start_at, timeZone),
    end_date: formatWithOffset(b.end_at, timeZone),
    booking_status: b.booking_status,
    interview_status: b.interview_status,
    attendance: b.attendance,
    pay_status: b.pay_status,
    pay_option: b.pay_option,
    booked_by: b.booked_by,
    video_meeting: b.video_meeting,
    interview_report_available: b.interview_report_available,
    created_at: formatWithOffset(b.created_at, timeZone),
  };
}
export type BookingView = ReturnType<typeof toBookingView>;

export interface BookingLinks {
  /** Where a candidate pays for a candidate_pays booking. */
  payment: (token: string) => string;
}

function videoMeeting(deps: Deps) {
  const meetingId = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return {
    meeting_id: meetingId,
    join_link: `${deps.config.videoMeetingBaseUrl}/clinical-interview-${meetingId}`,
    password: randomToken(6).replace(/[-_]/g, 'x').slice(0, 8),
  };
}


function assertUsable(hold: HoldRecord | undefined, clientId: string, now: string): asserts hold is HoldRecord {
  // Another client's hold is indistinguishable from one that does not exist.
  if (!hold || hold.client_id !== clientId || hold.status === 'released') {
    throw new DomainError('hold-not-found', 'No hold with that hold_hash; hold a slot first');
  }
  if (hold.status === 'used') throw new DomainError('hold-used', 'That hold has already been used for a booking');
  if (hold.expires_at <= now) throw new DomainError('hold-expired', 'That hold has expired; hold the slot again');
}

interface SlotClaim {
  /** The parts that take the slot for this booking. */
  parts: Part[];
  /** What a failed claim part means. */
  failures: Record<string, Failure>;
}

async function commitBooking(
  deps: Deps,
  input: {
    client: ClientAccount;
    family: BookingFamily;
    catalog: Catalog;
    slot: { interviewTypeId: number; interviewerId: number; date: string; time: string; startAt: string; endAt: string };
    candidate: CandidateInput;
    agencyContact: BookingItem['agency_contact'];
    payOption: PayOption;
    bookedBy: BookingItem['booked_by'];
    claim: (bookingId: number) => SlotClaim;
    links: BookingLinks;
  },
): Promise<{ view: BookingView; paymentToken?: string }> {
  const { client, family, catalog, slot } = input;
  const type = catalog.types.find((t) => t.id === slot.interviewTypeId);
  const interviewer = catalog.interviewers.find((i) => i.id === slot.interviewerId);
  if (!type || !interviewer) throw new Error(`Slot refers to a missing interview type or interviewer`);
  const bookingId = await nextId(deps, family, 'booking');
  const claim = input.claim(bookingId);
  const tz = deps.config.serviceTimeZone;

  return retryOnConflict(
    async () => {
      const now = deps.clock().toISOString();
      const payment = await planCharge(deps, {
        client,
        family,
        product: { kind: 'interview_type', id: type.id, name: type.name, price: type.price },
        payOption: input.payOption,
        bookingId,
      });
      const booking: BookingItem = {
        id: bookingId,
        client_id: client.clientId,
        family,
        candidate: input.candidate,
        agency_contact: input.agencyContact,
        interview_type: { id: type.id, name: type.name },
        interviewer: { id: interviewer.id, name: interviewer.name },
        date: slot.date,
        time: slot.time,
        start_at: slot.startAt,
        end_at: slot.endAt,
        booking_status: payment.bookingStatus,
        interview_status: 'scheduled',
        attendance: 'pending',
        pay_status: payment.payStatus,
        pay_option: input.payOption,
        booked_by: input.bookedBy,
        video_meeting: videoMeeting(deps),
        interview_report_available: false,
        price: type.price,
        payment_token: payment.paymentToken,
        created_at: now,
        updated_at: now,
      };
      const view = toBookingView(booking, tz);
      const parts: Part[] = [
        ...claim.parts,
        part('booking', putItem(deps, { ...bookingKeys.booking(client.clientId, family, bookingId), ...bookingKeys.byId(family, bookingId), entity: 'booking', ...booking }, itemAbsent)),
        ...payment.parts,
        part('event', eventPut(deps, { type: 'booking.created', client_id: client.clientId, family, data: view })),
      ];
      if (payment.paymentToken) {
        const content = bookingPaymentLink({
          candidateName: `${booking.candidate.first_name} ${booking.candidate.last_name}`,
          interviewType: type.name,
          when: `${slot.date} at ${slot.time}`,
          agency: client.name,
          amount: formatMoney(type.price),
          paymentUrl: input.links.payment(payment.paymentToken),
        });
        parts.push(part('email', emailPut(deps, { to: booking.candidate.email, ...content })));
      }
      // A wallet that changed since it was read has no domain meaning: retryOnConflict runs the whole attempt again.
      await transact(deps, parts, { ...claim.failures, ...payment.failures });
      return { view, paymentToken: payment.paymentToken };
    },
  );
}

/** POST /bookings: books the caller's held slot. */
export async function createBooking(deps: Deps, clientId: string, input: NewBooking, links: BookingLinks, family: BookingFamily = CLINICAL_FAMILY): Promise<BookingView> {
  const hold = await getHold(deps, family, input.hold_hash);
  assertUsable(hold, clientId, deps.clock().toISOString());
  const [catalog, client] = await Promise.all([loadCatalog(deps), getClient(deps, clientId)]);
  if (!client) throw new DomainError('hold-not-found', 'No hold with that hold_hash');

  const { view } = await commitBooking(deps, {
    client,
    family,
    catalog,
    slot: {
      interviewTypeId: hold.interview_type_id,
      interviewerId: hold.interviewer_id,
      date: hold.date,
      time: hold.time,
      startAt: hold.start_at,
      endAt: hold.end_at,
    },
    candidate: pickCandidate(input),
    agencyContact: { name: input.agency_contact_name ?? null, email: input.agency_contact_email ?? null },
    payOption: input.pay_option,
    bookedBy: 'Agency',
    links,
    claim: (bookingId) => {
      const explain = async () => {
        const again = await getHold(deps, family, hold.hold_hash);
        try {
          assertUsable(again, clientId, deps.clock().toISOString());
        } catch (err) {
          return err as DomainError;
        }
        return undefined;
      };
      return {
        parts: [
          part(
            'hold',
            updateItem(deps, holdKeys.hold(family, hold.hold_hash), { set: { status: 'used', booking_id: bookingId } }, {
              expression: 'client_id = :client AND #status = :active AND expires_at > :now',
              names: { '#status': 'status' },
              values: { ':active': 'active', ':client': clientId, ':now': deps.clock().toISOString() },
            }),
          ),
          part('slot', updateItem(deps, holdKeys.slotLock(family, hold.date, hold.time, hold.interviewer_id), { set: { state: 'booked', booking_id: bookingId }, remove: ['expires_at', 'ttl'] }, { expression: 'hold_hash = :hash', values: { ':hash': hold.hold_hash } })),
          // The client's only active hold is this one (it is active and unexpired), so its marker goes.
          part('marker', deleteItem(deps, holdKeys.activeHold(clientId, family))),
        ],
        failures: { hold: explain, slot: explain },
      };
    },
  });
  return view;
}

/** A candidate books a free slot from the agency's booking page: no hold, candidate pays. */
export async function createCandidateBooking(
  deps: Deps,
  clientId: string,
  input: CandidateInput & { interviewTypeId: number; date: string; time: string },
  freeSlots: { interviewerId: number; startAt: Date; endAt: Date }[],
  links: BookingLinks,
  family: BookingFamily = CLINICAL_FAMILY,
): Promise<{ view: BookingView; paymentToken?: string }> {
  const [catalog, client] = await Promise.all([loadCatalog(deps), getClient(deps, clientId)]);
  if (!client) throw new DomainError('not-found', 'No such booking page');
  for (const slot of freeSlots) {
    try {
      return await commitBooking(deps, {
        client,
        family,
        catalog,
        slot: { interviewTypeId: input.interviewTypeId, interviewerId: slot.interviewerId, date: input.date, time: input.time, startAt: slot.startAt.toISOString(), endAt: slot.endAt.toISOString() },
        candidate: pickCandidate(input),
        agencyContact: { name: null, email: null },
        payOption: 'candidate_pays',
        bookedBy: 'Candidate',
        links,
        claim: (bookingId) => ({
          parts: [
            part(
              'slot',
              putItem(
                deps,
                { ...holdKeys.slotLock(family, input.date, input.time, slot.interviewerId), entity: 'slot-lock', state: 'booked', booking_id: bookingId, client_id: clientId },
                slotFree(deps.clock().toISOString()),
              ),
            ),
          ],
          failures: { slot: new DomainError('slot-unavailable', 'That slot was just taken') },
        }),
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'slot-unavailable') continue;
      throw err;
    }
  }
  throw new DomainError('slot-unavailable', `The slot on ${input.date} at ${input.time} is no longer available`);
}

/** Named condition: the slot lock may be taken (absent, or its hold expired). */
export const slotFree = (now: string): Condition => ({ expression: SLOT_FREE, names: { '#state': 'state' }, values: { ':held': 'held', ':now': now } });

function pickCandidate(input: CandidateInput): CandidateInput {
  const { first_name, last_name, email, phone, job_role, nmc_number } = input;
  return { first_name, last_name, email, phone, job_role, nmc_number };
}

export async function getBookingItem(deps: Deps, clientId: string, id: number, family: FamilyId = CLINICAL_FAMILY): Promise<BookingItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingKeys.booking(clientId, family, id), ConsistentRead: true }));
  return Item as BookingItem | undefined;
}

/** A booking of the caller's; another client's is not-found, never forbidden. */
export async function getBooking(deps: Deps, clientId: string, id: number, family: FamilyId = CLINICAL_FAMILY): Promise<BookingView> {
  const item = await getBookingItem(deps, clientId, id, family);
  if (!item) throw new DomainError('not-found', `No booking ${id}`);
  return toBookingView(item, deps.config.serviceTimeZone);
}

export interface BookingFilter {
  status?: BookingStatus;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The caller's bookings, newest first, filtered by status and interview date. */
export async function listBookings(deps: Deps, clientId: string, filter: BookingFilter, family: FamilyId = CLINICAL_FAMILY): Promise<Page<BookingView>> {
  const pk = clientKeys.partition(clientId);
  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':pk': pk, ':prefix': bookingKeys.familyPrefix(family) };
  const names: Record<string, string> = {};
  if (filter.status) {
    conditions.push('booking_status = :status');
    values[':status'] = filter.status;
  }
  if (filter.from) {
    conditions.push('#date >= :from');
    values[':from'] = filter.from;
    names['#date'] = 'date';
  }
  if (filter.to) {
    conditions.push('#date <= :to');
    values[':to'] = filter.to;
    names['#date'] = 'date';
  }
  const scope = { pk, prefix: bookingKeys.familyPrefix(family) };
  const data: BookingView[] = [];
  let cursor = await decodeCursor(deps, scope, filter.cursor);
  // A filter can leave a page short: read on until the page is full or the list ends.
  do {
    const page = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: conditions.length ? conditions.join(' AND ') : undefined,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: filter.limit - data.length,
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    data.push(...(page.Items as BookingItem[]).map((b) => toBookingView(b, deps.config.serviceTimeZone)));
    cursor = pageKey(page.LastEvaluatedKey);
  } while (cursor && data.length < filter.limit);
  return { data, next_cursor: await encodeCursor(deps, scope, cursor) };
}
