import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { retained } from '../platform/clock.js';
import { queryPages } from '../platform/db.js';
import { clientKeys } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import type { ActiveItem, StoredItem, SubjectFinder } from './adapter.js';
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
  for await (const page of queryPages(deps, input)) yield* page as StoredItem[];
}

async function collect(deps: Deps, clientId: string, prefixes: readonly string[], keep: (item: StoredItem) => boolean): Promise<StoredItem[]> {
  const found: StoredItem[] = [];
  const now = deps.clock();
  for (const prefix of prefixes) {
    const items = queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': prefix },
      ConsistentRead: true,
    });
    for await (const item of items) if (retained(item, now) && keep(item)) found.push(item);
  }
  return found;
}

export const findSubjectItems = (deps: Deps, finder: SubjectFinder, clientId: string, hash: string): Promise<StoredItem[]> =>
  collect(deps, clientId, finder.prefixes, (item) => mentions(item, hash));

/** The items about the person that do not carry the address (`linked`): read only when the person has items. */
export async function findLinkedItems(deps: Deps, finder: SubjectFinder, clientId: string, found: readonly StoredItem[]): Promise<StoredItem[]> {
  const linked = finder.linked;
  if (!linked || found.length === 0) return [];
  return collect(deps, clientId, linked.prefixes, (item) => linked.belongs(item, found));
}

/**
 * What an erasure reaches: the items that carry the address, then the linked
 * ones the family erases too (a request before its items); `linked` is all
 * the linked items, for what is kept.
 */
export async function findErasable(deps: Deps, finder: SubjectFinder, clientId: string, hash: string) {
  const found = await findSubjectItems(deps, finder, clientId, hash);
  const linked = await findLinkedItems(deps, finder, clientId, found);
  const items = finder.linked?.erase ? [...found, ...linked.filter((l) => !found.some((f) => f.sk === l.sk))] : found;
  return { found, linked, items };
}

/** What stops an erasure among the person's items. */
export const activeAmong = (finder: SubjectFinder, items: readonly StoredItem[], now: Date): ActiveItem[] =>
  items.flatMap((item) => finder.active(item, now) ?? []);
