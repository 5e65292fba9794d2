import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { outboxPut } from '../events/outbox.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { deleteItem, part, putItem, transact, TransactionFailed, updateItem, type Condition, type Part } from '../platform/transact.js';

/**
 * The schedule's index: one due item per
 * monitored worker, in a partition named by the hour of its next check and
 * a shard, moved in the same transaction as the worker's `next_check_at`.
 * The dispatcher queries the buckets from its cursor to now, reading only
 * what is due, and never scans.
 */

export const DUE_SHARDS = 16;
const HOUR_MS = 3_600_000;
/** A dispatched check that has not moved its due item by then is queued again. */
export const DISPATCH_LEASE_MS = 30 * 60_000;
/** With no cursor yet (a new table), the dispatcher looks this far back. */
const FIRST_LOOKBACK_HOURS = 24;

const DUE = TABLE_KEYS.monitoringDue;
const CURSOR = TABLE_KEYS.dueCursor;
const hourOf = (iso: string) => iso.slice(0, 13);
const shardOf = (workerId: number) => workerId % DUE_SHARDS;

export const dueKeys = {
  bucket: (hour: string, shard: number) => key(DUE.pk, hour, shard),
  item: (dueAt: string, clientId: string, workerId: number) => ({
    pk: key(DUE.pk, hourOf(dueAt), shardOf(workerId)),
    sk: key(DUE.sk.due, dueAt, clientId, padId(workerId)),
  }),
  cursor: () => ({ pk: CURSOR.pk, sk: CURSOR.sk.cursor }),
};

/** The message a dispatched check travels in, on the `checks` queue. */
export interface DueCheck {
  id: string;
  client_id: string;
  worker_id: number;
  due_at: string;
}

/**
 * The due item's move when a worker's `next_check_at` goes from `before` to
 * `after` (null: not monitored): parts for the worker's own transaction,
 * which is conditioned on the worker as it was read.
 */
export function dueParts(deps: Deps, clientId: string, workerId: number, before: string | null | undefined, after: string | null | undefined): Part[] {
  if ((before ?? null) === (after ?? null)) return [];
  const parts: Part[] = [];
  if (before) parts.push(part('due-old', deleteItem(deps, dueKeys.item(before, clientId, workerId))));
  if (after)
    parts.push(
      part(
        'due',
        putItem(deps, { ...dueKeys.item(after, clientId, workerId), entity: 'monitoring-due', client_id: clientId, worker_id: workerId, due_at: after }),
      ),
    );
  return parts;
}

/** Still there, and not dispatched within the lease. */
const dispatchable = (now: Date): Condition => ({
  expression: 'attribute_exists(pk) AND (attribute_not_exists(dispatched_at) OR dispatched_at <= :lease)',
  values: { ':lease': new Date(now.getTime() - DISPATCH_LEASE_MS).toISOString() },
});

const hoursFrom = (from: string, to: string): string[] => {
  const hours: string[] = [];
  for (let t = Date.parse(`${from}:00:00Z`); t <= Date.parse(`${to}:00:00Z`); t += HOUR_MS) hours.push(new Date(t).toISOString().slice(0, 13));
  return hours;
};

export interface DispatchResult {
  queued: number;
  /** Buckets queried (hours × shards). */
  queries: number;
}

/**
 * The `monitoring-dispatch` schedule: every due item of the buckets from the
 * cursor to now, with `due_at` at or before now, is marked dispatched and its
 * check queued in one transaction (a second dispatcher, or one within the
 * lease, finds it marked). Dispatched items stay until their check moves
 * them, so the cursor passes an hour only once it is empty and over an hour
 * old: a check that never ran is queued again after the lease.
 */
export async function dispatchDue(deps: Deps): Promise<DispatchResult> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const { Item: cursorItem } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: dueKeys.cursor(), ConsistentRead: true }));
  const from = (cursorItem?.hour as string | undefined) ?? hourOf(new Date(now.getTime() - FIRST_LOOKBACK_HOURS * HOUR_MS).toISOString());
  const settledBefore = hourOf(new Date(now.getTime() - HOUR_MS).toISOString());
  const result: DispatchResult = { queued: 0, queries: 0 };
  let cursor = from;
  let passable = true;
  for (const hour of hoursFrom(from, hourOf(nowIso))) {
    // The hour's shards side by side, each one's items one after another: a peak hour's checks
    // (~250,000 at 10,000 agencies) dispatch sixteen at a time within the schedule's run.
    const counts = await Promise.all(
      Array.from({ length: DUE_SHARDS }, async (_, shard) => {
        result.queries++;
        const due = await queryAll(deps, {
          KeyConditionExpression: 'pk = :pk AND sk <= :now',
          ExpressionAttributeValues: { ':pk': dueKeys.bucket(hour, shard), ':now': `${nowIso}\uffff` },
          ConsistentRead: true,
        });
        for (const item of due) if (await dispatchOne(deps, item, now)) result.queued++;
        return due.length;
      }),
    );
    const left = counts.reduce((a, b) => a + b, 0);
    passable &&= left === 0 && hour < settledBefore;
    if (passable) cursor = hourOf(new Date(Date.parse(`${hour}:00:00Z`) + HOUR_MS).toISOString());
  }
  if (cursor !== from) {
    await deps.db
      .send(
        new PutCommand({
          TableName: deps.table,
          Item: { ...dueKeys.cursor(), entity: 'due-cursor', hour: cursor, updated_at: nowIso },
          ConditionExpression: 'attribute_not_exists(pk) OR #hour < :hour',
          ExpressionAttributeNames: { '#hour': 'hour' },
          ExpressionAttributeValues: { ':hour': cursor },
        }),
      )
      .catch((err: unknown) => {
        // Another dispatcher moved it as far or further.
        if (!isConditionalCheckFailed(err)) throw err;
      });
  }
  return result;
}

/** Marks one due item dispatched and queues its check; false if it was moved meanwhile or is within its lease. */
async function dispatchOne(deps: Deps, item: Record<string, unknown>, now: Date): Promise<boolean> {
  const clientId = String(item.client_id);
  const workerId = Number(item.worker_id);
  const dueAt = String(item.due_at);
  const message: DueCheck = { id: `chk_${randomUUID().replaceAll('-', '')}`, client_id: clientId, worker_id: workerId, due_at: dueAt };
  try {
    await transact(deps, [
      part('due', updateItem(deps, dueKeys.item(dueAt, clientId, workerId), { set: { dispatched_at: now.toISOString() } }, dispatchable(now))),
      part('check', outboxPut(deps, 'check', message.id, message)),
    ]);
    return true;
  } catch (err) {
    if (err instanceof TransactionFailed && err.has('due')) return false;
    throw err;
  }
}
