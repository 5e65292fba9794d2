import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from './clients.js';
import { cancellationReasons, failedCondition } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import { randomToken } from './secrets.js';

/**
 * Each agency's public booking page is reached through an unguessable token,
 * made the first time the agency asks for its booking URL.
 */
export const bookingPageKeys = {
  page: (token: string) => ({ pk: `BOOKING_PAGE#${token}`, sk: 'BOOKING_PAGE' }),
};

export async function bookingPageToken(deps: Deps, clientId: string): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKeys.item(clientId), ConsistentRead: true }));
    if (!Item) throw new DomainError('not-found', `No client ${clientId}`);
    if (Item.booking_page_token) return String(Item.booking_page_token);
    const token = randomToken(18);
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: deps.table,
                Key: clientKeys.item(clientId),
                UpdateExpression: 'SET booking_page_token = :t',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(booking_page_token)',
                ExpressionAttributeValues: { ':t': token },
              },
            },
            { Put: { TableName: deps.table, Item: { ...bookingPageKeys.page(token), entity: 'booking-page', client_id: clientId } } },
          ],
        }),
      );
      return token;
    } catch (err) {
      if (!failedCondition(cancellationReasons(err)?.[0])) throw err; // another request made it: read it
    }
  }
  throw new Error(`Could not make a booking page token for ${clientId}`);
}

export async function clientOfBookingPage(deps: Deps, token: string): Promise<string> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingPageKeys.page(token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'There is no booking page at this address');
  return String(Item.client_id);
}
