import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from './clients.js';
import { cancellationReasons, failedCondition } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { FamilyId } from './families.js';
import { key, TABLE_KEYS } from './key-registry.js';
import { randomToken } from './secrets.js';

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
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: deps.table,
                Item: { ...bookingPageKeys.ofClient(clientId, family), entity: 'client-booking-page', token },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { ConditionCheck: { TableName: deps.table, Key: clientKeys.item(clientId), ConditionExpression: 'attribute_exists(pk)' } },
            { Put: { TableName: deps.table, Item: { ...bookingPageKeys.page(family, token), entity: 'booking-page', client_id: clientId } } },
          ],
        }),
      );
      return token;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (failedCondition(reasons?.[1])) throw new DomainError('not-found', `No client ${clientId}`);
      if (!failedCondition(reasons?.[0])) throw err; // another request made it: read it
    }
  }
  throw new Error(`Could not make a booking page token for ${clientId}`);
}

export async function clientOfBookingPage(deps: Deps, family: FamilyId, token: string): Promise<string> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingPageKeys.page(family, token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'There is no booking page at this address');
  return String(Item.client_id);
}
