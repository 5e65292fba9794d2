import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomInt } from 'node:crypto';
import { CLINICAL_FAMILY, loadCatalog, type BookingFamily, type Catalog, type InterviewType } from '../clinical-interview/catalog.js';
import { clientKeys, getClient, type ClientAccount } from '../access/clients.js';
import { cancellationReasons, failedCondition } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { bookingPaymentLink } from '../messaging/email-templates.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { getHold, holdKeys, SLOT_FREE, type HoldRecord } from '../inventory/holds.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, GSI1_KEYS, key, TABLE_KEYS } from '../platform/key-registry.js';
import { CURRENCY, type Money } from '../commerce/money.js';
import { emailPut, eventPut } from '../events/outbox.js';
import { decodeCursor, encodeCursor, pageKey, type Page } from '../platform/pagination.js';
import { randomToken } from '../platform/secrets.js';
import { formatWithOffset } from '../platform/time.js';
import { ledgerPut, newLedgerEntry, readWallet, walletChange, walletKeys } from '../commerce/wallets.js';
import { retryOnConflict } from '../platform/db.js';

/** Clinical interview bookings: creation with the four pay options, reads and lists. */

export { PAY_OPTIONS, BOOKING_STATUSES, type PayOption, type BookingStatus } from '../platform/vocabulary.js';
import type { BookingStatus, PayOption } from '../platform/vocabulary.js';

export type InterviewStatus = 'scheduled' | 'completed' | 'cancelled';
export type Attendance = 'pending' | 'attended' | 'no_show';
export type PayStatus = 'completed' | 'invoiced' | 'pending' | 'refunded';

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

const { client: CLIENT, paymentRequest: PAYREQ } = TABLE_KEYS;
const BY_ID = GSI1_KEYS.bookingById;
export const bookingKeys = {
  /** Every booking of one family in the client's partition. */
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.booking, family),
  booking: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.booking, family, padId(id)) }),
  /** Operators find a booking by family and id alone through the index. */
  byId: (family: FamilyId, id: number) => ({ gsi1pk: key(BY_ID.pk, family, id), gsi1sk: BY_ID.sk.booking }),
  paymentRequest: (family: FamilyId, token: string) => ({ pk: key(PAYREQ.pk, family, token), sk: PAYREQ.sk.paymentRequest }),
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

const formatMoney = (m: Money) => `£${(m.amount / 100).toFixed(2)}`;

function assertUsable(hold: HoldRecord | undefined, clientId: string, now: string): asserts hold is HoldRecord {
  // Another client's hold is indistinguishable from one that does not exist.
  if (!hold || hold.client_id !== clientId || hold.status === 'released') {
    throw new DomainError('hold-not-found', 'No hold with that hold_hash; hold a slot first');
  }
  if (hold.status === 'used') throw new DomainError('hold-used', 'That hold has already been used for a booking');
  if (hold.expires_at <= now) throw new DomainError('hold-expired', 'That hold has expired; hold the slot again');
}

interface PaymentPlan {
  items: object[];
  bookingStatus: BookingStatus;
  payStatus: PayStatus;
  paymentToken?: string;
}

/** What a pay option takes (credits, or pence of the price) and the statuses the booking starts in. */
export interface PaymentTerms {
  charge: number;
  unit: 'credits' | typeof CURRENCY;
  bookingStatus: BookingStatus;
  payStatus: PayStatus;
}

const PAY_STATUSES: Record<PayOption, Pick<PaymentTerms, 'bookingStatus' | 'payStatus'>> = {
  credits: { bookingStatus: 'booked', payStatus: 'completed' },
  balance: { bookingStatus: 'booked', payStatus: 'completed' },
  invoice: { bookingStatus: 'booked', payStatus: 'invoiced' },
  candidate_pays: { bookingStatus: 'pending_payment', payStatus: 'pending' },
};

/**
 * The pure rule of a pay option: one credit of the type, or the price from the
 * money balance, on the client's invoice or from the candidate. `funds` is the
 * wallet the option draws on (credits or pence), as read now. Refusals are
 * domain errors.
 */
export function paymentTerms(payOption: PayOption, type: Pick<InterviewType, 'name' | 'price'>, account: { funds?: number; invoiceEnabled: boolean }): PaymentTerms {
  const funds = account.funds ?? 0;
  const terms: PaymentTerms = { charge: type.price.amount, unit: CURRENCY, ...PAY_STATUSES[payOption] };
  if (payOption === 'credits') {
    if (funds < 1) throw new DomainError('insufficient-credits', `No ${type.name} credits left`, { credits: funds });
    return { ...terms, charge: 1, unit: 'credits' };
  }
  if (payOption === 'balance' && funds < type.price.amount) {
    throw new DomainError('insufficient-balance', `The booking costs ${formatMoney(type.price)}; the balance is ${formatMoney({ ...type.price, amount: funds })}`, {
      balance: { amount: funds, currency: type.price.currency },
      price: type.price,
    });
  }
  if (payOption === 'invoice' && !account.invoiceEnabled) throw new DomainError('invoice-disabled', 'Invoice payments are not enabled on this account');
  return terms;
}

/** The transaction items of a pay option, from balances read now. Refusals change nothing. */
async function planPayment(deps: Deps, client: ClientAccount, family: FamilyId, type: InterviewType, bookingId: number, payOption: PayOption): Promise<PaymentPlan> {
  const typeRef = { id: type.id, name: type.name };
  const ledger = { client_id: client.clientId, family, booking_id: bookingId, interview_type: typeRef };
  const termsFrom = (funds?: number) => paymentTerms(payOption, type, { funds, invoiceEnabled: client.invoiceEnabled });
  switch (payOption) {
    case 'credits': {
      const wallet = await readWallet(deps, walletKeys.credits(client.clientId, family, type.id));
      const terms = termsFrom(wallet.balance);
      return {
        ...terms,
        items: walletChange(deps, wallet, -terms.charge, { ...ledger, kind: 'credit_debit', unit: terms.unit }),
      };
    }
    case 'balance': {
      const wallet = await readWallet(deps, walletKeys.money(client.clientId, family));
      const terms = termsFrom(wallet.balance);
      return {
        ...terms,
        items: walletChange(deps, wallet, -terms.charge, { ...ledger, kind: 'money_debit', unit: terms.unit }),
      };
    }
    case 'invoice': {
      const terms = termsFrom();
      return {
        ...terms,
        items: [
          // Invoicing may be switched off between our read and the commit.
          {
            ConditionCheck: {
              TableName: deps.table,
              Key: clientKeys.item(client.clientId),
              ConditionExpression: 'invoice_enabled = :yes',
              ExpressionAttributeValues: { ':yes': true },
            },
          },
          ledgerPut(deps, newLedgerEntry(deps, { ...ledger, kind: 'invoice', amount: terms.charge, unit: terms.unit, balance_after: null })),
        ],
      };
    }
    case 'candidate_pays': {
      const terms = termsFrom();
      const token = randomToken(24);
      return {
        ...terms,
        items: [
          {
            Put: {
              TableName: deps.table,
              Item: {
                ...bookingKeys.paymentRequest(family, token),
                entity: 'payment-request',
                token,
                client_id: client.clientId,
                family,
                booking_id: bookingId,
                amount: type.price,
                status: 'pending',
                created_at: deps.clock().toISOString(),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
        paymentToken: token,
      };
    }
  }
}

interface SlotClaim {
  /** Transaction items that take the slot for this booking; they come first in the transaction. */
  items: object[];
  /** What a failed claim item means. */
  explain: (index: number) => Promise<DomainError | undefined>;
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
      const payment = await planPayment(deps, client, family, type, bookingId, input.payOption);
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
      const items: object[] = [
        ...claim.items,
        {
          Put: {
            TableName: deps.table,
            Item: { ...bookingKeys.booking(client.clientId, family, bookingId), ...bookingKeys.byId(family, bookingId), entity: 'booking', ...booking },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...payment.items,
        eventPut(deps, { type: 'booking.created', client_id: client.clientId, family, data: view }),
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
        items.push(emailPut(deps, { to: booking.candidate.email, ...content }));
      }
      try {
        await deps.db.send(new TransactWriteCommand({ TransactItems: items as never }));
      } catch (err) {
        const reasons = cancellationReasons(err);
        if (!reasons) throw err;
        for (const [index] of claim.items.entries()) {
          if (failedCondition(reasons[index])) {
            const explained = await claim.explain(index);
            if (explained) throw explained;
          }
        }
        const paymentStart = claim.items.length + 1;
        if (input.payOption === 'invoice' && failedCondition(reasons[paymentStart])) {
          throw new DomainError('invoice-disabled', 'Invoice payments are not enabled on this account');
        }
        throw err; // a wallet race: retryOnConflict runs the whole attempt again
      }
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
    claim: (bookingId) => ({
      items: [
        {
          Update: {
            TableName: deps.table,
            Key: holdKeys.hold(family, hold.hold_hash),
            UpdateExpression: 'SET #status = :used, booking_id = :booking',
            ConditionExpression: 'client_id = :client AND #status = :active AND expires_at > :now',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':used': 'used', ':active': 'active', ':client': clientId, ':booking': bookingId, ':now': deps.clock().toISOString() },
          },
        },
        {
          Update: {
            TableName: deps.table,
            Key: holdKeys.slotLock(family, hold.date, hold.time, hold.interviewer_id),
            UpdateExpression: 'SET #state = :booked, booking_id = :booking REMOVE expires_at, #ttl',
            ConditionExpression: 'hold_hash = :hash',
            ExpressionAttributeNames: { '#state': 'state', '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':booked': 'booked', ':booking': bookingId, ':hash': hold.hold_hash },
          },
        },
        // The client's only active hold is this one (it is active and unexpired), so its marker goes.
        { Delete: { TableName: deps.table, Key: holdKeys.activeHold(clientId, family) } },
      ],
      explain: async () => {
        const again = await getHold(deps, family, hold.hold_hash);
        try {
          assertUsable(again, clientId, deps.clock().toISOString());
        } catch (err) {
          return err as DomainError;
        }
        return undefined;
      },
    }),
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
          items: [
            {
              Put: {
                TableName: deps.table,
                Item: { ...holdKeys.slotLock(family, input.date, input.time, slot.interviewerId), entity: 'slot-lock', state: 'booked', booking_id: bookingId, client_id: clientId },
                ConditionExpression: SLOT_FREE,
                ExpressionAttributeNames: { '#state': 'state' },
                ExpressionAttributeValues: { ':held': 'held', ':now': deps.clock().toISOString() },
              },
            },
          ],
          explain: async () => new DomainError('slot-unavailable', 'That slot was just taken'),
        }),
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'slot-unavailable') continue;
      throw err;
    }
  }
  throw new DomainError('slot-unavailable', `The slot on ${input.date} at ${input.time} is no longer available`);
}

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
