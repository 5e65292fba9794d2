import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.js';
import type { FamilyId } from './families.js';
import { key, TABLE_KEYS } from './key-registry.js';

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
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: counterKeys.counter(scope, name),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes!.value);
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
