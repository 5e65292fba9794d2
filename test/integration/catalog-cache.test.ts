import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { catalogKeys, CLINICAL_FAMILY, createInterviewType, loadCatalog, setInterviewTypeActive } from '../../functions/core/clinical-interview/catalog.js';
import { testDeps } from '../support/env.js';
import { eventually } from '../support/eventually.js';

it('shows its own catalogue changes at once, and another process\'s within 2 seconds', async () => {
  const deps = await testDeps();
  expect((await loadCatalog(deps)).types).toEqual([]);
  const type = await createInterviewType(deps, { name: 'RN', durationMinutes: 30, priceMinor: 1000 });
  expect((await loadCatalog(deps)).types.map((t) => t.id)).toEqual([type.id]);
  await setInterviewTypeActive(deps, type.id, false);
  expect((await loadCatalog(deps)).types[0]!.active).toBe(false);

  // Another process (the operator CLI, another Lambda) changes the table directly.
  await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: catalogKeys.type(CLINICAL_FAMILY, type.id), UpdateExpression: 'SET active = :a', ExpressionAttributeValues: { ':a': true } }));
  await eventually(async () => (await loadCatalog(deps)).types[0]!.active, { timeoutMs: 2100, intervalMs: 100, what: 'the cached catalogue to expire' });
});
