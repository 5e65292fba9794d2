import { queryAll, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { deleteItem, itemExists, part, transact, TransactionFailed } from '../platform/transact.js';
import { outboxPut, type OutboxItem, type OutboxKind } from './outbox.js';

/**
 * Outbox items that a queue refused on every try are parked here, as
 * `relay-failed` records, so that the relay goes on with the items behind
 * them, for every tenant. Nothing committed is lost: an operator lists them
 * and sends them again (`npm run ops -- outbox parked [--retry ID|all]`),
 * which commits each as a new outbox item, written as this version writes
 * it (any text a queue refused before is escaped now).
 */

const RELAY_FAILED = TABLE_KEYS.relayFailed;

export interface ParkedRecord {
  pk: string;
  sk: string;
  entity: 'relay-failed';
  /** The outbox item's own id (an event's `evt_…`, an e-mail's `eml_…`, …). */
  id: string;
  kind: OutboxKind;
  payload: string;
  /** When the change that wrote the item committed. */
  created_at: string;
  parked_at: string;
  /** What the queue said, the last time. */
  reason: string;
  /** The tenant whose change it was, where the item names one. */
  client_id?: string;
  outbox: { pk: string; sk: string };
}

/** What `ops outbox parked` shows of a record. */
export type ParkedView = Omit<ParkedRecord, 'pk' | 'sk' | 'entity' | 'payload' | 'outbox'> & { payload_bytes: number };

/** The outbox item's id: the last part of its sort key (outbox.ts `outboxKeys.item`). */
const idOf = (item: OutboxItem): string => item.sk.slice(item.sk.lastIndexOf('#') + 1);

/** A payload's JSON value; undefined for text that is not JSON. */
function parsed(payload: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function clientOf(payload: string): string | undefined {
  const clientId = parsed(payload)?.client_id;
  return typeof clientId === 'string' ? clientId : undefined;
}

export const parkedKey = (item: Pick<OutboxItem, 'sk'>) => ({ pk: key(RELAY_FAILED.pk), sk: key(RELAY_FAILED.sk.item, item.sk) });

/**
 * Parks refused items. Locally the poller also deletes them from the outbox
 * (it reads the outbox's oldest items, so they would stand in its way); in
 * the cloud the stream has moved past them and TTL removes them. Parking the
 * same item twice writes the same record.
 */
export async function parkOutboxItems(
  deps: Deps,
  refused: { item: OutboxItem; reason: string }[],
  options: { removeFromOutbox: boolean },
): Promise<ParkedRecord[]> {
  const parkedAt = deps.clock().toISOString();
  const records: ParkedRecord[] = refused.map(({ item, reason }) => {
    const clientId = clientOf(item.payload);
    return {
      ...parkedKey(item),
      entity: 'relay-failed',
      id: idOf(item),
      kind: item.kind,
      payload: item.payload,
      created_at: item.created_at,
      parked_at: parkedAt,
      reason: reason.slice(0, 1000),
      ...(clientId ? { client_id: clientId } : {}),
      outbox: { pk: item.pk, sk: item.sk },
    };
  });
  // Each record before its outbox item goes: a crash in between parks it again, never loses it.
  await writeMany(
    deps,
    records.map((put) => ({ put: { ...put } })),
  );
  if (options.removeFromOutbox)
    await writeMany(
      deps,
      refused.map(({ item }) => ({ delete: { pk: item.pk, sk: item.sk } })),
    );
  return records;
}

const parkedRecords = async (deps: Deps): Promise<ParkedRecord[]> =>
  (await queryAll(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': key(RELAY_FAILED.pk) } })) as unknown as ParkedRecord[];

/** Every parked item, oldest first. */
export async function listParked(deps: Deps): Promise<ParkedView[]> {
  return (await parkedRecords(deps)).map(({ pk: _pk, sk: _sk, entity: _entity, payload, outbox: _outbox, ...view }) => ({
    ...view,
    payload_bytes: Buffer.byteLength(payload),
  }));
}

/**
 * Sends parked items again (`ids`, or every one): each becomes a new outbox
 * item and its record goes, in one transaction, so that an item is parked or
 * queued, never both and never neither. Resolves to the ids sent again and
 * those that were not parked.
 */
export async function retryParked(deps: Deps, ids: string[] | 'all'): Promise<{ retried: string[]; unknown: string[] }> {
  const records = await parkedRecords(deps);
  const chosen = ids === 'all' ? records : records.filter((r) => ids.includes(r.id));
  const unknown = ids === 'all' ? [] : ids.filter((id) => !records.some((r) => r.id === id));
  const retried: string[] = [];
  for (const record of chosen) {
    // Its JSON value, which outboxPut writes again as this version writes it.
    const value = parsed(record.payload);
    const put = outboxPut(deps, record.kind, record.id, value ?? {});
    // A payload that is not JSON goes as it was: the consumer's dead-letter queue is the place for it.
    if (!value) put.Put.Item.payload = record.payload;
    try {
      await transact(deps, [part('outbox', put), part('record', deleteItem(deps, parkedKey(record.outbox), itemExists))]);
      retried.push(record.id);
    } catch (err) {
      // Another operator sent it again first.
      if (!(err instanceof TransactionFailed && err.has('record'))) throw err;
    }
  }
  return { retried, unknown };
}
