import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.js';

/** Integer ids from atomic counters. A failed write after taking an id leaves a gap, never a duplicate. */
export const counterKeys = { counter: (name: string) => ({ pk: `COUNTER#${name}`, sk: 'COUNTER' }) };

export async function nextId(deps: Deps, name: string): Promise<number> {
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: counterKeys.counter(name),
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
export async function raiseCounter(deps: Deps, name: string, value: number): Promise<void> {
  await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: counterKeys.counter(name),
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
