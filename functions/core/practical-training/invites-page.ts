import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingLinks } from '../bookings/commit.js';
import { getBookingItem } from '../bookings/records.js';
import { eventPut } from '../events/outbox.js';
import { inviteOpenedParts, inviteUsedParts } from '../portal-v2/booking-follow.js';
import { holdRecordKeys, type Holder } from '../inventory/holds.js';
import { lockInForce, readLocks, unitId } from '../inventory/units.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { DomainError } from '../platform/errors.js';
import { part, transact, TransactionFailed, updateItem, type Condition, type Part } from '../platform/transact.js';
import type { BookingOptions } from '../bookings/course-bookings.js';
import { createPracticalBooking, type PracticalBookingView, type TraineeInput } from './bookings.js';
import { PRACTICAL_FAMILY } from './catalogue.js';
import { getTrainingEvent, listTrainingEvents } from './events.js';
import {
  announcesInvites,
  changeInvite,
  inviteEventPart,
  inviteFamily,
  inviteOfToken,
  inviteStatus,
  inviteUsable,
  toInviteView,
  viewContext,
  type InviteItem,
} from './invites.js';
import { inviteKeys } from '../bookings/invite-keys.js';
import { holdSeat, releaseSeat, type SeatHold, type SeatHoldView } from './seats.js';
import type { TrainingEventView } from './views.js';

/**
 * What the candidate's invite page does to the invite. Opening it only counts; a GET never uses it.
 */

/** Why the page cannot be used, if it cannot: the invite was used, or is past `expires_at`. */
export const inviteGone = (invite: InviteItem, now: Date): 'used' | 'expired' | undefined => {
  const status = inviteStatus(invite, now);
  return status === 'used' || status === 'expired' ? status : undefined;
};

/** *firstOpen*: nobody opened it before, and it can still be used. */
const firstOpen = (now: Date): Condition => ({
  expression: 'attribute_not_exists(opened_at) AND #status IN (:queued, :sent) AND expires_at > :now',
  names: { '#status': 'status' },
  values: { ':queued': 'queued', ':sent': 'sent', ':now': now.toISOString() },
});

/**
 * GET /invite/{t}: the invite behind the link. `count` (a GET, not a HEAD)
 * adds one to `open_count`; the first opening of a usable invite also sets
 * `opened_at`, the status `opened` and writes `booking_invite.opened`, once.
 */
export async function openInvite(deps: Deps, token: string, count: boolean, family: FamilyId = PRACTICAL_FAMILY): Promise<InviteItem> {
  const invite = await inviteOfToken(deps, token, family);
  const now = deps.clock();
  if (!count || inviteGone(invite, now)) return invite;
  // The first opening also opens a request's item (its request read again if it changed meanwhile).
  for (let attempt = 1; !invite.opened_at && attempt <= 5; attempt++) {
    try {
      return await changeInvite(
        deps,
        invite,
        { status: 'opened', opened_at: now.toISOString(), open_count: invite.open_count + 1 },
        async (u) => [
          ...(announcesInvites(family) ? [await inviteEventPart(deps, 'booking_invite.opened', u)] : []),
          ...(await inviteOpenedParts(deps, u, now.toISOString())),
        ],
        firstOpen(now),
      );
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      if (err.has('invite')) break; // opened (or changed) meanwhile: just count
    }
  }
  await transact(deps, [part('invite', updateItem(deps, inviteKeys.invite(invite.client_id, family, invite.id), { add: { open_count: 1 } }))]);
  return { ...invite, open_count: invite.open_count + 1 };
}

export const holderOf = (i: Pick<InviteItem, 'client_id' | 'id'> & Partial<Pick<InviteItem, 'expires_at'>>): Holder => ({
  type: 'invite',
  clientId: i.client_id,
  inviteId: i.id,
  until: i.expires_at,
});

/** The seat the invite holds now, if any: the invite's hold marker (in the invite's family) carries it. */
export async function inviteSeatHold(deps: Deps, invite: InviteItem): Promise<SeatHold | undefined> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: holdRecordKeys.inviteHold(invite.client_id, inviteFamily(invite), invite.id), ConsistentRead: true }),
  );
  return Item && String(Item.expires_at) > deps.clock().toISOString() ? (Item as unknown as SeatHold) : undefined;
}

/** The events the invite lets the candidate choose: its pinned event, or its course's (at its location), open for booking. */
export async function inviteEvents(deps: Deps, invite: InviteItem): Promise<TrainingEventView[]> {
  if (invite.training_event_id) {
    const event = await getTrainingEvent(deps, invite.training_event_id).catch(() => undefined);
    return event?.status === 'open' ? [event] : [];
  }
  const page = await listTrainingEvents(deps, { course_id: invite.course.id, location_id: invite.location_id ?? undefined, available_only: true, limit: 50 });
  return page.data;
}

/** The request's agency contact, which the candidate's form does not ask for. */
export const agencyContactOf = (invite: InviteItem) =>
  invite.agency_contact ? { agency_contact_name: invite.agency_contact.name ?? undefined, agency_contact_email: invite.agency_contact.email ?? undefined } : {};

export const gone = (state: 'used' | 'expired') =>
  new DomainError('invalid-state', state === 'used' ? 'This invite has already been used to book' : 'This invite has expired', { gone: state });

/** The invite, if it can still be used; else the invite-gone refusal (the page answers 410). */
export async function usableInvite(deps: Deps, token: string, family: FamilyId = PRACTICAL_FAMILY): Promise<InviteItem> {
  const invite = await inviteOfToken(deps, token, family);
  const state = inviteGone(invite, deps.clock());
  if (state) throw gone(state);
  return invite;
}

/** POST /invite/{t}/hold: a seat of one of the invite's events, held by the invite (never blocking the agency's own hold). */
export async function holdSeatForInvite(deps: Deps, token: string, eventId: number): Promise<SeatHoldView> {
  const invite = await usableInvite(deps, token);
  const [events, held] = await Promise.all([inviteEvents(deps, invite), inviteSeatHold(deps, invite)]);
  // A seat held already is the page's to show, whatever the client's other invites hold.
  if (held) throw new DomainError('hold-conflict', 'A seat is held for this invite already');
  if (!events.some((e) => e.id === eventId)) {
    throw new DomainError('event-unavailable', 'That event is not open for booking through this invite', { pointer: '/training_event_id' });
  }
  return holdSeat(deps, holderOf(invite), eventId);
}

/**
 * The scopes (an event, `E<id>`; a timeslot, `C<course>@<date>T<time>`) of
 * which the client's invites hold as many seats as they may at once
 *: the invite page offers them as busy. A listing,
 * read once; the hold's own transaction decides.
 */
export async function busyForInvites(deps: Deps, invite: InviteItem, scopes: string[]): Promise<Set<string>> {
  const cap = deps.config.inviteSeatsPerSession;
  const family = inviteFamily(invite);
  const placesOf = (scope: string) => Array.from({ length: cap }, (_, i) => holdRecordKeys.invitePlace(invite.client_id, family, scope, `P${i + 1}`));
  const locks = await readLocks(deps, scopes.flatMap(placesOf));
  const now = deps.clock();
  return new Set(scopes.filter((scope) => placesOf(scope).every((p) => lockInForce(locks.get(unitId(p)), now))));
}

/** The events of which the client's invites hold as many seats as they may at once. */
export async function eventsBusyForInvites(deps: Deps, invite: InviteItem, eventIds: number[]): Promise<Set<number>> {
  const busy = await busyForInvites(
    deps,
    invite,
    eventIds.map((id) => `E${id}`),
  );
  return new Set(eventIds.filter((id) => busy.has(`E${id}`)));
}

/** POST /invite/{t}/release: gives the invite's seat back, if it holds one. */
export async function releaseInviteSeat(deps: Deps, token: string): Promise<void> {
  const invite = await usableInvite(deps, token);
  const hold = await inviteSeatHold(deps, invite);
  if (hold) await releaseSeat(deps, holderOf(invite), hold.hold_hash);
}

/**
 * What booking with an invite adds to the booking's transaction: the invite
 * used (only while usable and unexpired; else the invite-gone refusal), the
 * family's `booking_invite.used` if it announces it, and a request's item
 * booked while its request is open.
 */
export const inviteUse =
  (deps: Deps, invite: InviteItem, token: string, usedEvent?: (used: InviteItem, now: Date) => Part): BookingOptions['extra'] =>
  async ({ now, bookingId }) => {
    const family = inviteFamily(invite);
    const used: InviteItem = { ...invite, status: 'used', used_at: now.toISOString(), booking_id: bookingId, updated_at: now.toISOString() };
    const item = await inviteUsedParts(deps, invite, bookingId);
    if (!item) throw gone('expired');
    return {
      extraParts: [
        part(
          'invite',
          updateItem(
            deps,
            inviteKeys.invite(invite.client_id, family, invite.id),
            { set: { status: 'used', used_at: used.used_at, booking_id: bookingId, updated_at: used.updated_at } },
            inviteUsable(now),
          ),
        ),
        ...(usedEvent ? [usedEvent(used, now)] : []),
        ...item,
      ],
      failures: { invite: async () => gone(inviteGone(await inviteOfToken(deps, token, family), deps.clock()) ?? 'used') },
    };
  };

/**
 * POST /invite/{t}: books the invite's held seat with the agency's
 * `pay_option`. The booking's transaction also marks the invite used (only
 * while usable and unexpired) with `booking_invite.used`, so N concurrent
 * posts make one booking. A refused charge changes nothing: the invite and
 * its hold stay usable.
 */
export async function bookWithInvite(
  deps: Deps,
  token: string,
  candidate: TraineeInput,
  links: BookingLinks,
): Promise<{ booking: PracticalBookingView; paymentToken?: string }> {
  const invite = await usableInvite(deps, token);
  const hold = await inviteSeatHold(deps, invite);
  if (!hold) throw new DomainError('hold-not-found', 'Choose an event first: no seat is held for this invite');
  const context = await viewContext(deps, invite);
  const booking = await createPracticalBooking(
    deps,
    invite.client_id,
    { ...candidate, ...agencyContactOf(invite), hold_hash: hold.hold_hash, pay_option: invite.pay_option },
    links,
    {
      holder: holderOf(invite),
      bookedBy: 'Candidate',
      bookingInviteId: invite.id,
      source: invite.source,
      extra: inviteUse(deps, invite, token, (used, now) =>
        part(
          'invite event',
          eventPut(deps, {
            type: 'booking_invite.used',
            family: PRACTICAL_FAMILY,
            client_id: invite.client_id,
            data: toInviteView(used, { now, timeZone: deps.config.serviceTimeZone, ...context }),
          }),
        ),
      ),
    },
  );
  const item = await getBookingItem(deps, invite.client_id, booking.id, PRACTICAL_FAMILY);
  return { booking, paymentToken: item?.payment_token };
}
