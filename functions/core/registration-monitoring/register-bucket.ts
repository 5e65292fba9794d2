import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { key } from '../platform/key-registry.js';
import { conflictPause } from '../platform/sdk.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { RegisterAdapter } from './register-adapter.js';
import type { Register } from './registers.js';

/**
 * Each register adapter's token bucket, one item
 * in the table shared by every function: a call to the register takes a
 * token. The bucket refills at the adapter's rate by the service clock, and
 * the refill and the take are one write conditioned on the bucket as read,
 * so concurrent checks never take the same token. Checks from a queue leave
 * the last 20 % to checks people asked for: an empty bucket makes a queued
 * check wait (its message comes back later) and a manual one an error check,
 * `rate_limited`.
 */

/** The bucket holds this many seconds of the adapter's rate: a burst, then the rate. */
export const BURST_SECONDS = 30;
/** The share of a full bucket only manual checks may take. */
export const MANUAL_RESERVE = 0.2;

export type Priority = 'manual' | 'queued';

/** A queued check found its register's bucket empty: it is retried later, not failed. */
export class RegisterBusy extends Error {
  constructor(register: Register) {
    super(`The ${register.toUpperCase()} register's rate limit is reached; the check waits for its turn`);
    this.name = 'RegisterBusy';
  }
}

const BUCKET = TABLE_KEYS.registerBucket;
export const registerBucketKeys = { bucket: (adapterId: string, register: Register) => ({ pk: key(BUCKET.pk, adapterId, register), sk: BUCKET.sk.bucket }) };

export const bucketCapacity = (adapter: RegisterAdapter): number => Math.max(1, Math.round(adapter.ratePerSecond * BURST_SECONDS));

/** Takes one token for a call to the register; false when the bucket (less the manual reserve, for a queued check) is empty. */
export async function takeToken(deps: Deps, adapter: RegisterAdapter, register: Register, priority: Priority): Promise<boolean> {
  const capacity = bucketCapacity(adapter);
  const floor = 1 + (priority === 'queued' ? capacity * MANUAL_RESERVE : 0);
  const k = registerBucketKeys.bucket(adapter.id, register);
  for (let attempt = 1; attempt <= 50; attempt++) {
    const now = deps.clock().getTime();
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true }));
    const since = Item ? Date.parse(String(Item.refilled_at)) : now;
    // A clock behind the last refill (another function's) adds nothing.
    const tokens = Item ? Math.min(capacity, Number(Item.tokens) + (Math.max(0, now - since) / 1000) * adapter.ratePerSecond) : capacity;
    if (tokens < floor) return false;
    try {
      await deps.db.send(
        new PutCommand({
          TableName: deps.table,
          Item: {
            ...k,
            entity: 'register-bucket',
            tokens: tokens - 1,
            capacity,
            refilled_at: new Date(Math.max(now, since)).toISOString(),
            seq: Number(Item?.seq ?? 0) + 1,
          },
          ConditionExpression: Item ? 'seq = :seq' : 'attribute_not_exists(pk)',
          ExpressionAttributeValues: Item ? { ':seq': Number(Item.seq) } : undefined,
        }),
      );
      return true;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      await conflictPause(Math.min(attempt, 5));
    }
  }
  throw new Error(`The ${register} register's token bucket stayed contended`);
}
