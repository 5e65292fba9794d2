import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { checkItem, itemAbsent, itemExists, part, putItem, transact, TransactionFailed } from '../platform/transact.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key, TABLE_KEYS } from '../platform/key-registry.js';
import { randomToken } from '../platform/secrets.js';

/**
 * Each agency's public booking page in a family is reached through an
 * unguessable token, made the first time the agency asks for its booking URL
 * there. The client's partition keeps its token per family; the token's own
 * item leads back to the client.
 */
const { client: CLIENT, bookingPage: PAGE } = TABLE_KEYS;
export const bookingPageKeys = {
  /** The client's token in a family. */
  ofClient: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.bookingPage, family) }),
  page: (family: FamilyId, token: string) => ({ pk: key(PAGE.pk, family, token), sk: PAGE.sk.page }),
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

export async function clientOfBookingPage(deps: Deps, family: FamilyId, token: string): Promise<string> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingPageKeys.page(family, token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'There is no booking page at this address');
  return String(Item.client_id);
}
