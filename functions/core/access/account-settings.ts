import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { updateExisting } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { clientKeys, getClient, getClientItem } from './clients.js';

/**
 * A client account's settings beyond its credentials and trust (./clients.ts):
 * invoicing, the reference request product, product entitlements, and its
 * account number. Each is an attribute of the client item alone.
 */

/** Turns one of a client's yes/no settings on or off (not-found for no such client). */
async function setSwitch(deps: Deps, clientId: string, setting: 'invoice_enabled' | 'reference_requests_enabled', enabled: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: clientKeys.item(clientId), UpdateExpression: `SET ${setting} = :e`, ExpressionAttributeValues: { ':e': enabled } },
    `No client ${clientId}`,
  );
}

/** Turns invoice payments on or off for a client. */
export const setInvoiceEnabled = (deps: Deps, clientId: string, enabled: boolean): Promise<void> => setSwitch(deps, clientId, 'invoice_enabled', enabled);

/** The client's account number (requested_by on reference requests), given the first time it is needed. */
export async function clientNumber(deps: Deps, clientId: string): Promise<number> {
  const item = await getClientItem(deps, clientId);
  if (!item) throw new DomainError('not-found', `No client ${clientId}`);
  if (typeof item.number === 'number') return item.number;
  const number = await nextId(deps, 'platform', 'client');
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.item(clientId),
        UpdateExpression: 'SET #number = :n',
        ConditionExpression: 'attribute_not_exists(#number)',
        ExpressionAttributeNames: { '#number': 'number' },
        ExpressionAttributeValues: { ':n': number },
      }),
    );
    return number;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return Number((await getClientItem(deps, clientId))!.number);
    throw err;
  }
}

/** Turns the reference request product on or off for a client (off: creating one is 403). */
export const setReferenceRequestsEnabled = (deps: Deps, clientId: string, enabled: boolean): Promise<void> =>
  setSwitch(deps, clientId, 'reference_requests_enabled', enabled);

/**
 * Grants or withdraws a product entitlement (`occupational_health`): the list
 * is written on condition that it is still the one read, and read again if
 * not, so two grants at once both land.
 */
export async function setEntitlement(deps: Deps, clientId: string, entitlement: string, enabled: boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const client = await getClient(deps, clientId);
    if (!client) throw new DomainError('not-found', `No client ${clientId}`);
    const before = client.entitlements;
    const next = [...new Set(enabled ? [...before, entitlement] : before.filter((e) => e !== entitlement))];
    try {
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: clientKeys.item(clientId),
          UpdateExpression: 'SET entitlements = :next',
          // An empty list read may be no attribute at all (clients made before entitlements).
          ConditionExpression:
            before.length === 0 ? 'attribute_exists(pk) AND (attribute_not_exists(entitlements) OR entitlements = :before)' : 'entitlements = :before',
          ExpressionAttributeValues: { ':next': next, ':before': before },
        }),
      );
      return;
    } catch (err) {
      if (!isConditionalCheckFailed(err) || attempt >= 12) throw err;
    }
  }
}
