import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { catalogKeys, CLINICAL_FAMILY, createInterviewType, loadCatalog, setInterviewTypeActive } from '../../functions/core/clinical-interview/catalog.js';
import { catalogueVersionKeys } from '../../functions/core/platform/table-cache.js';
import { testDeps } from '../support/env.js';
import { eventually } from '../support/eventually.js';

it("shows its own catalogue changes at once, and another container's within 2 seconds of its version's increment", async () => {
  const deps = await testDeps();
  expect((await loadCatalog(deps)).types).toEqual([]);
  const type = await createInterviewType(deps, { name: 'RN', durationMinutes: 30, priceMinor: 1000 });
  expect((await loadCatalog(deps)).types.map((t) => t.id)).toEqual([type.id]);
  await setInterviewTypeActive(deps, type.id, false);
  expect((await loadCatalog(deps)).types[0]!.active).toBe(false);
  const version = async () =>
    (
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: catalogueVersionKeys.version(CLINICAL_FAMILY),
          UpdateExpression: 'ADD version :zero',
          ExpressionAttributeValues: { ':zero': 0 },
          ReturnValues: 'ALL_NEW',
        }),
      )
    ).Attributes!.version as number;
  expect(await version()).toBe(2); // each change through the module increments it

  // A change written without the increment is not seen at the 2-second check: the copy is only re-read when the version moves (or after a minute).
  const activate = (active: boolean) =>
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: catalogKeys.type(CLINICAL_FAMILY, type.id),
        UpdateExpression: 'SET active = :a',
        ExpressionAttributeValues: { ':a': active },
      }),
    );
  await activate(true);
  await new Promise((r) => setTimeout(r, 2100));
  expect((await loadCatalog(deps)).types[0]!.active).toBe(false);

  // Another container (the operator CLI, another Lambda) changes it as the module does: the write, then the increment.
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: catalogueVersionKeys.version(CLINICAL_FAMILY),
      UpdateExpression: 'ADD version :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  await eventually(async () => (await loadCatalog(deps)).types[0]!.active, { timeoutMs: 2100, intervalMs: 100, what: 'the cached catalogue to be read again' });
});
