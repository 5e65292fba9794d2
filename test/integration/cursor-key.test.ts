import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { cursorKeyItem, decodeCursor, encodeCursor, loadCursorKey, openCursor, sealCursor } from '../../functions/core/platform/pagination.js';
import { testDeps } from '../support/env.js';

const scope = { pk: 'CLIENT#c1', prefix: 'CANDIDATE#' };

it('creates one cursor key per table on first use, even when cold containers race for it', async () => {
  const deps = await testDeps();
  // Each call stands for a container with an empty cache.
  const keys = await Promise.all(Array.from({ length: 8 }, () => loadCursorKey(deps)));
  expect(keys[0]!.length).toBe(32);
  for (const key of keys) expect(Buffer.from(key).equals(Buffer.from(keys[0]!))).toBe(true);
  const { Items } = await deps.db.send(
    new QueryCommand({ TableName: deps.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': cursorKeyItem.pk } }),
  );
  expect(Items).toHaveLength(1);

  // A cursor one container seals, another opens; another table's key does not.
  const cursor = await encodeCursor(deps, scope, { pk: scope.pk, sk: 'CANDIDATE#000000000001' });
  expect(openCursor(await loadCursorKey(deps), scope, cursor!)).toEqual({ pk: scope.pk, sk: 'CANDIDATE#000000000001' });
  expect(await decodeCursor(deps, scope, sealCursor(keys[3]!, scope, { pk: scope.pk, sk: 'CANDIDATE#000000000002' }))).toEqual({
    pk: scope.pk,
    sk: 'CANDIDATE#000000000002',
  });
  const other = await testDeps();
  await expect(decodeCursor(other, scope, cursor!)).rejects.toMatchObject({ code: 'invalid-cursor' });
});
