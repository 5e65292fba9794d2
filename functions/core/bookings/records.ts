import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import type { FamilyEvent } from '../events/kinds.js';
import { eventPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { part, type Part } from '../platform/transact.js';
import type { BookingEvent, BookingKind, BookingRecord } from './kind.js';

/** Where bookings live and how they are found, for every booking kind. */

const CLIENT = TABLE_KEYS.client;
const DUE = TABLE_KEYS.paymentDue;
const BY_ID = GSI1_KEYS.bookingById;
export const bookingKeys = {
  /** Every booking of one family in the client's partition. */
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.booking, family),
  booking: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.booking, family, padId(id)) }),
  /** Operators find a booking by family and id alone through the index. */
  byId: (family: FamilyId, id: number) => ({ gsi1pk: key(BY_ID.pk, family, id), gsi1sk: BY_ID.sk.booking }),
  /** The expiry sweep's list of a family's unpaid bookings, by deadline: present while the booking waits for payment. */
  paymentDue: (family: FamilyId, dueAt: string, clientId: string, id: number) => ({
    pk: key(DUE.pk, family),
    sk: key(DUE.sk.booking, dueAt, clientId, padId(id)),
  }),
  paymentDuePartition: (family: FamilyId) => key(DUE.pk, family),
};

export const paymentDueOf = (b: BookingRecord) => bookingKeys.paymentDue(b.family, b.payment_due_at!, b.client_id, b.id);

export async function getBookingItem<B extends BookingRecord>(deps: Deps, clientId: string, id: number, family: FamilyId): Promise<B | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingKeys.booking(clientId, family, id), ConsistentRead: true }));
  return Item as B | undefined;
}

/** A booking of the caller's, as its kind shows it; another client's is not-found, never forbidden. */
export async function getBookingView<B extends BookingRecord, V>(deps: Deps, kind: BookingKind<B, V>, clientId: string, id: number): Promise<V> {
  const item = await getBookingItem<B>(deps, clientId, id, kind.family);
  if (!item) throw new DomainError('not-found', `No booking ${id}`);
  return kind.view(item, deps.config.serviceTimeZone);
}

/** Operators know a booking by its family and id alone; the index tells whose it is. */
export async function findBookingIn<B extends BookingRecord>(deps: Deps, family: FamilyId, id: number): Promise<B> {
  const byId = bookingKeys.byId(family, id);
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': byId.gsi1pk, ':sk': byId.gsi1sk },
    }),
  );
  // The index may lag; read the item itself for the truth.
  const booking = Items[0] && (await getBookingItem<B>(deps, String(Items[0].client_id), id, family));
  if (!booking) throw new DomainError('not-found', `No booking ${id}`);
  return booking;
}

/** The part that records a booking event, carrying the booking as the API shows it. */
export function bookingEventPart<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, type: BookingEvent, booking: B): Part {
  // Every booking family's catalogue has these four kinds; the pairing is checked there.
  const event = { type, family: kind.family } as FamilyEvent;
  return part('event', eventPut(deps, { ...event, client_id: booking.client_id, data: kind.view(booking, deps.config.serviceTimeZone) }));
}
