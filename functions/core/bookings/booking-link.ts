import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, getClient } from '../access/clients.js';
import { checkItem, deleteItem, itemAbsent, itemExists, part, putItem, transact, TransactionFailed, updateItem } from '../platform/transact.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { randomToken } from '../platform/secrets.js';
import type { Part } from '../platform/transact.js';
import type { ItemKey } from '../platform/db.js';
import { freeUnit, holdUnitPart, lockInForce, readLocks, shuffled, unitId } from '../inventory/units.js';
import type { BookingRecord, PaymentDeadline } from './kind.js';
import { linkWithdrawn } from './link-withdrawn.js';
import type { BookingPlan } from './plan.js';

/**
 * Each agency's booking link (its public booking page) in a family is reached through an
 * unguessable token, made the first time the agency asks for its booking URL
 * there. The client's partition keeps its token per family; the token's own
 * item leads back to the client.
 */
const CLIENT = TABLE_KEYS.client;
const PAGE = TABLE_KEYS.bookingPage;
export const bookingPageKeys = {
  /** The client's token in a family. */
  ofClient: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.bookingPage, family) }),
  page: (family: FamilyId, token: string) => ({ pk: key(PAGE.pk, family, token), sk: PAGE.sk.page }),
  /** One of the link's places for unpaid bookings (`P1` … `P5`). */
  place: (clientId: string, family: FamilyId, name: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.linkPlace, family, name) }),
};

export async function bookingPageToken(deps: Deps, clientId: string, family: FamilyId): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingPageKeys.ofClient(clientId, family), ConsistentRead: true }));
    if (Item) return String(Item.token);
    const token = randomToken(18);
    try {
      await transact(
        deps,
        [
          part('client token', putItem(deps, { ...bookingPageKeys.ofClient(clientId, family), entity: 'client-booking-page', token }, itemAbsent)),
          part('client', checkItem(deps, clientKeys.item(clientId), itemExists)),
          part('page', putItem(deps, { ...bookingPageKeys.page(family, token), entity: 'booking-page', client_id: clientId })),
        ],
        { client: new DomainError('not-found', `No client ${clientId}`) },
      );
      return token;
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('client token'))) throw err; // another request made it: read it
    }
  }
  throw new Error(`Could not make a booking page token for ${clientId}`);
}

/** The agency whose link this is; an unknown (or rotated) token is not-found, a disabled agency's link withdrawn. */
export async function clientOfBookingPage(deps: Deps, family: FamilyId, token: string): Promise<string> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingPageKeys.page(family, token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'There is no booking page at this address');
  const clientId = String(Item.client_id);
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  if (client.disabled) throw linkWithdrawn();
  return clientId;
}

/**
 * POST /client/booking-url/rotate: the client's link in the family gets a
 * new token, and the old one is gone at once (404), in one transaction: the
 * client's token changes only from the one read, the old page item is
 * deleted and the new one written. The link's unpaid places belong to the
 * client, so a new link still counts the bookings waiting for payment.
 */
export async function rotateBookingPageToken(deps: Deps, clientId: string, family: FamilyId): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const old = await bookingPageToken(deps, clientId, family);
    const token = randomToken(18);
    try {
      await transact(deps, [
        part(
          'client token',
          updateItem(
            deps,
            bookingPageKeys.ofClient(clientId, family),
            { set: { token } },
            { expression: '#token = :old', names: { '#token': 'token' }, values: { ':old': old } },
          ),
        ),
        part('old page', deleteItem(deps, bookingPageKeys.page(family, old))),
        part('page', putItem(deps, { ...bookingPageKeys.page(family, token), entity: 'booking-page', client_id: clientId }, itemAbsent)),
      ]);
      return token;
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('client token'))) throw err; // rotated meanwhile: rotate what it is now
    }
  }
  throw new Error(`The booking page token of ${clientId} kept changing while rotating it`);
}

/**
 * An unpaid booking made anonymously through a public link must be paid
 * within `linkPaymentHours` (2 by default), and never later than the
 * family's own limit before the start: a link's
 * bookings hold seats for hours, not days.
 */
export const linkPaymentDeadline = (deps: Deps, family: PaymentDeadline): PaymentDeadline => ({
  afterBookingHours: Math.min(family.afterBookingHours, deps.config.linkPaymentHours),
  beforeStartHours: family.beforeStartHours,
});

/**
 * A booking link takes at most this many unpaid bookings at once, so a link cannot hold a day's slots with bookings nobody pays.
 * Each unpaid booking holds one of the link's places until it is paid,
 * cancelled, or its payment deadline passes: places are unit locks, held by
 * the booking until `payment_due_at`, so an expired one is free by the clock.
 */
export const LINK_UNPAID_LIMIT = 5;
const PLACES = Array.from({ length: LINK_UNPAID_LIMIT }, (_, i) => `P${i + 1}`);

/** A free place of the client's link, as found for one booking; `lost`: the refusal when another booking takes it first. */
export interface LinkPlace {
  name: string;
  key: ItemKey;
  lost: DomainError;
}

/** The part of a booking's plan that takes its link place until its payment deadline; the booking names the place, so that paying or cancelling gives it back at once. */
export const linkPlacePlan = (deps: Deps, clientId: string, place: LinkPlace, at: { bookingId: number; dueAt: string; now: Date }): BookingPlan => ({
  fields: { link_place: place.name },
  unitParts: [holdUnitPart(deps, place.key, { client_id: clientId, booking_id: at.bookingId, expires_at: at.dueAt }, at.now, 'link place')],
  failures: { 'link place': place.lost },
});

/**
 * Runs `book` with a free place of the client's link in the family; none
 * free: limit-reached, and nothing changes. A place lost to a concurrent
 * booking is looked for again.
 */
export async function withLinkPlace<T>(deps: Deps, clientId: string, family: FamilyId, book: (place: LinkPlace) => Promise<T>): Promise<T> {
  const keyOf = (name: string) => bookingPageKeys.place(clientId, family, name);
  for (let round = 1; ; round++) {
    const now = deps.clock();
    const locks = await readLocks(deps, PLACES.map(keyOf));
    const [free] = shuffled(PLACES.filter((name) => !lockInForce(locks.get(unitId(keyOf(name))), now)));
    const full = new DomainError('limit-reached', `${LINK_UNPAID_LIMIT} bookings made through this page are waiting for payment, the most it takes at once`, {
      limit: LINK_UNPAID_LIMIT,
    });
    if (!free) throw full;
    const lost = new DomainError('limit-reached', 'That place was just taken');
    try {
      return await book({ name: free, key: keyOf(free), lost });
    } catch (err) {
      if (err !== lost || round >= LINK_UNPAID_LIMIT) throw err === lost ? full : err;
    }
  }
}

/** The part that gives back a booking's link place, while it is still the booking's (after its deadline another may hold it). */
export async function linkPlaceReleased(deps: Deps, booking: Pick<BookingRecord, 'client_id' | 'family' | 'id' | 'link_place'>): Promise<Part[]> {
  if (!booking.link_place) return [];
  const place = bookingPageKeys.place(booking.client_id, booking.family, booking.link_place);
  const lock = (await readLocks(deps, [place])).get(unitId(place));
  return lock?.booking_id === booking.id ? [freeUnit(deps, place, { bookingId: booking.id }, 'link place')] : [];
}
