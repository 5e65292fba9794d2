import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.js';
import type { FamilyId } from './families.js';
import { key } from './key-registry.js';
import * as TABLE_KEYS from './table-keys.js';

/**
 * Integer ids from atomic counters, one counter per family and kind of thing
 * (booking 7 of one family is not booking 7 of another). A failed write
 * after taking an id leaves a gap, never a duplicate.
 */

/** A family, or the platform for what belongs to no family (client account numbers). */
export type CounterScope = FamilyId | 'platform';

const COUNTER = TABLE_KEYS.counter;
export const counterKeys = { counter: (scope: CounterScope, name: string) => ({ pk: key(COUNTER.pk, scope, name), sk: COUNTER.sk.counter }) };

export async function nextId(deps: Deps, scope: CounterScope, name: string): Promise<number> {
  return (await nextIds(deps, scope, name, 1))[0]!;
}

/** `count` ids at once, in one write: for many new things of one kind (an import's new workers). */
export async function nextIds(deps: Deps, scope: CounterScope, name: string, count: number): Promise<number[]> {
  if (count < 1) return [];
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: counterKeys.counter(scope, name),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(Attributes!.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** Zero-padded so that sort keys order numerically. */
export const padId = (id: number): string => String(id).padStart(10, '0');

/** Moves a counter up to at least `value` (after records were written with fixed ids). */
export async function raiseCounter(deps: Deps, scope: CounterScope, name: string, value: number): Promise<void> {
  await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: counterKeys.counter(scope, name),
        UpdateExpression: 'SET #value = :v',
        ConditionExpression: 'attribute_not_exists(#value) OR #value < :v',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':v': value },
      }),
    )
    .catch((err) => {
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    });
}
