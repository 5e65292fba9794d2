import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import type { ActiveItem, DataSubjectAdapter, StoredItem } from './adapter.js';
import { mentions } from './subject.js';

/**
 * Finding a person's items: for each of the family's prefixes, one query of
 * the client's partition (`begins_with`), a page at a time, kept when an
 * address in the item hashes as the person's. The cost is a read of every
 * item the client has under those prefixes (bookings, their change-log
 * copies, invites), per request; no index by address exists, so that no
 * address is stored in clear to find people by.
 */

/** Each item a query yields, a page at a time. */
export async function* queryItems(deps: Deps, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): AsyncGenerator<StoredItem> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new QueryCommand({ ...input, TableName: deps.table, ExclusiveStartKey }));
    yield* (page.Items ?? []) as StoredItem[];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

export async function findSubjectItems(deps: Deps, adapter: DataSubjectAdapter, clientId: string, hash: string): Promise<StoredItem[]> {
  const found: StoredItem[] = [];
  for (const prefix of adapter.prefixes) {
    const items = queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': prefix },
      ConsistentRead: true,
    });
    for await (const item of items) if (mentions(item, hash)) found.push(item);
  }
  return found;
}

/** What stops an erasure among the person's items. */
export const activeAmong = (adapter: DataSubjectAdapter, items: readonly StoredItem[], now: Date): ActiveItem[] =>
  items.flatMap((item) => adapter.active(item, now) ?? []);
