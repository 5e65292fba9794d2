import { QueryCommand, UpdateCommand, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';

/** Small table helpers every entity module uses. */

/** Every item of a query, page after page. */
export async function queryAll(deps: Deps, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new QueryCommand({ ...input, TableName: deps.table, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Updates an item that must already exist; a missing one is not-found with `notFound` as the detail. */
export async function updateExisting(
  deps: Deps,
  input: Omit<UpdateCommandInput, 'TableName' | 'ConditionExpression'>,
  notFound: string,
): Promise<void> {
  try {
    await deps.db.send(new UpdateCommand({ ...input, TableName: deps.table, ConditionExpression: 'attribute_exists(pk)' }));
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new DomainError('not-found', notFound);
    throw err;
  }
}
