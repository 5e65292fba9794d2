import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type QueryCommandInput,
  type ScanCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import { conflictPause } from './sdk.js';
import { TransactionFailed, type Condition } from './transact.js';
import { decodeCursor, encodeCursor, pageKey, type ListScope, type Page } from './pagination.js';

/** Small table helpers every entity module uses. */

/** A query's items a page at a time, for what is too large to hold at once (a month's ledger). */
export async function* queryPages(deps: Deps, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): AsyncGenerator<Record<string, unknown>[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new QueryCommand({ ...input, TableName: deps.table, ExclusiveStartKey }));
    yield page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** A scan's items a page at a time (upgrades, and what has no index to query). */
export async function* scanPages(deps: Deps, input: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey'>): AsyncGenerator<Record<string, unknown>[]> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new ScanCommand({ ...input, TableName: deps.table, ExclusiveStartKey }));
    yield page.Items ?? [];
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/** Every item of a query, page after page. */
export async function queryAll(deps: Deps, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(deps, input)) items.push(...page);
  return items;
}

export type ItemKey = { pk: string; sk: string };

/** `xs` in runs of at most `size`. */
export const chunksOf = <T>(xs: T[], size: number): T[][] => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, i * size + size));

/** `work` over `items`, at most `limit` at a time; the results in the items' order. */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
const backOff = (round: number) => new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** round) * Math.random()));

/** Items by key, read consistently, 100 keys to a request; a key with no item is left out. */
export async function getMany(deps: Deps, keys: ItemKey[]): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keys.map((k) => [`${k.pk}\n${k.sk}`, k])).values()];
  const pages = await Promise.all(
    chunksOf(unique, 100).map(async (chunk) => {
      const items: Record<string, unknown>[] = [];
      let pending: ItemKey[] = chunk;
      for (let round = 0; pending.length > 0; round++) {
        if (round > 0) await backOff(round);
        const result = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: true } } }));
        items.push(...(result.Responses?.[deps.table] ?? []));
        pending = (result.UnprocessedKeys?.[deps.table]?.Keys ?? []) as ItemKey[];
      }
      return items;
    }),
  );
  return pages.flat();
}

export type WriteRequest = { put: Record<string, unknown> } | { delete: ItemKey };

/**
 * Puts and deletes, 25 to a request, retrying what DynamoDB leaves
 * unprocessed. Each item is written on its own, not atomically: for logs
 * and clean-up, never for money or anything with a condition.
 */
export async function writeMany(deps: Deps, requests: WriteRequest[]): Promise<void> {
  await Promise.all(
    chunksOf(requests, 25).map(async (chunk) => {
      let pending = chunk.map((r) => ('put' in r ? { PutRequest: { Item: r.put } } : { DeleteRequest: { Key: r.delete } }));
      for (let round = 0; pending.length > 0; round++) {
        if (round > 0) await backOff(round);
        const result = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
        pending = (result.UnprocessedItems?.[deps.table] ?? []) as typeof pending;
      }
    }),
  );
}

/** Updates an item that must already exist; a missing one is not-found with `notFound` as the detail. */
export async function updateExisting(deps: Deps, input: Omit<UpdateCommandInput, 'TableName' | 'ConditionExpression'>, notFound: string): Promise<void> {
  try {
    await deps.db.send(new UpdateCommand({ ...input, TableName: deps.table, ConditionExpression: 'attribute_exists(pk)' }));
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new DomainError('not-found', notFound);
    throw err;
  }
}

/**
 * One page of a partition, newest (highest sort key) first unless `order`
 * says oldest, and the cursor
 * to the next. The cursor must be one this list (partition and prefix) handed out.
 */
export async function queryPage<T>(
  deps: Deps,
  query: { pk: string; prefix?: string; limit: number; cursor?: string; order?: 'newest' | 'oldest' },
  view: (item: Record<string, unknown>) => T,
): Promise<Page<T>> {
  const scope = { pk: query.pk, prefix: query.prefix };
  const result = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: query.prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': query.pk, ...(query.prefix ? { ':prefix': query.prefix } : {}) },
      ScanIndexForward: query.order === 'oldest',
      Limit: query.limit,
      ExclusiveStartKey: await decodeCursor(deps, scope, query.cursor),
      ConsistentRead: true,
    }),
  );
  return {
    data: (result.Items ?? []).map(view),
    next_cursor: await encodeCursor(deps, scope, pageKey(scope, result.LastEvaluatedKey)),
  };
}

/**
 * A page of a list that a filter (the table's, or a rule it cannot express:
 * `take` answers undefined) can leave short: reads on until the page is full
 * or the list ends. The cursor stands at the last item read into the page.
 * The list is a partition's sort keys under a prefix, or between two
 * (inclusive: `EVENT#<to>` ends before `EVENT#<to>#<id>`), of the table or
 * of the index `gsi1` (read eventually consistent, as DynamoDB reads a
 * global index).
 */
export async function queryFilteredPage<T>(
  deps: Deps,
  query: ListScope & { limit: number; cursor?: string; filter?: Condition; order?: 'newest' | 'oldest' },
  take: (item: Record<string, unknown>) => Promise<T | undefined> | T | undefined,
): Promise<Page<T>> {
  const scope: ListScope = { pk: query.pk, prefix: query.prefix, range: query.range, index: query.index };
  const [pkName, skName] = query.index ? ['gsi1pk', 'gsi1sk'] : ['pk', 'sk'];
  const sortKey = query.range ? `${skName} BETWEEN :from AND :to` : query.prefix ? `begins_with(${skName}, :prefix)` : undefined;
  const bounds = query.range ? { ':from': query.range.from, ':to': query.range.to } : query.prefix ? { ':prefix': query.prefix } : {};
  const filter = query.filter;
  const data: T[] = [];
  let cursor = await decodeCursor(deps, scope, query.cursor);
  do {
    const page = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: query.index,
        KeyConditionExpression: sortKey ? `${pkName} = :pk AND ${sortKey}` : `${pkName} = :pk`,
        FilterExpression: filter?.expression,
        ExpressionAttributeNames: filter?.names && Object.keys(filter.names).length ? filter.names : undefined,
        ExpressionAttributeValues: { ':pk': query.pk, ...bounds, ...filter?.values },
        ScanIndexForward: query.order === 'oldest',
        Limit: 50,
        ExclusiveStartKey: cursor,
        ConsistentRead: query.index ? undefined : true,
      }),
    );
    for (const item of page.Items ?? []) {
      if (data.length === query.limit) break;
      const view = await take(item);
      if (view !== undefined) data.push(view);
      cursor = pageKey(scope, item);
    }
    if (data.length < query.limit) cursor = pageKey(scope, page.LastEvaluatedKey);
  } while (cursor && data.length < query.limit);
  return { data, next_cursor: data.length === query.limit ? await encodeCursor(deps, scope, cursor) : null };
}

/** Runs an optimistic read-modify-write again when a transaction lost a race (a failed condition), with a short random back-off. */
export async function retryOnConflict<T>(work: () => Promise<T>, tries = 12): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof TransactionFailed) || i >= tries) throw err;
      await conflictPause(i);
    }
  }
}

/**
 * A one-off upgrade of stored items (a key they gained, an index they move
 * to): scans for the items `filter` picks and sets `set(item)` on each, only
 * while `still` holds (an item changed meanwhile got its new shape from that
 * write). Safe to run again or while the API serves; says how many it changed.
 */
export async function upgradeScanned(
  deps: Deps,
  filter: Condition,
  set: (item: Record<string, unknown>) => Record<string, unknown>,
  still: Condition,
): Promise<number> {
  let changed = 0;
  for await (const page of scanPages(deps, {
    FilterExpression: filter.expression,
    ExpressionAttributeNames: filter.names,
    ExpressionAttributeValues: filter.values,
  })) {
    for (const item of page) {
      const fields = Object.entries(set(item));
      await deps.db
        .send(
          new UpdateCommand({
            TableName: deps.table,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: `SET ${fields.map((_, i) => `#u${i} = :u${i}`).join(', ')}`,
            ConditionExpression: still.expression,
            ExpressionAttributeNames: { ...still.names, ...Object.fromEntries(fields.map(([name], i) => [`#u${i}`, name])) },
            ExpressionAttributeValues: { ...still.values, ...Object.fromEntries(fields.map(([, value], i) => [`:u${i}`, value])) },
          }),
        )
        .then(() => changed++)
        .catch((err: unknown) => {
          if (!isConditionalCheckFailed(err)) throw err;
        });
    }
  }
  return changed;
}
