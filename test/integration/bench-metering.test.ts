import { TransactWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { installMeter, reading, since } from '../../lib/bench/metering.js';
import { testDeps } from '../support/env.js';

// The benchmark's cost figures: a transaction is counted item by item, as DynamoDB bills it,
// not as DynamoDB Local reports it (one item's capacity for the whole transaction).
it('counts a transaction twice ⌈size / 1 KB⌉ write units per item, the larger of before and after', async () => {
  installMeter();
  const deps = await testDeps();
  const run = `METER#${Date.now()}`;
  const small = (i: number) => ({ pk: run, sk: `S#${i}`, filler: 'x'.repeat(300) });
  const large = (i: number) => ({ pk: run, sk: `L#${i}`, filler: 'x'.repeat(1500) });

  let before = reading();
  await deps.db.send(new TransactWriteCommand({ TransactItems: [1, 2, 3, 4, 5].map((i) => ({ Put: { TableName: deps.table, Item: small(i) } })) }));
  expect(since(before).write_units).toBe(10);

  before = reading();
  await deps.db.send(new TransactWriteCommand({ TransactItems: [1, 2].map((i) => ({ Put: { TableName: deps.table, Item: large(i) } })) }));
  expect(since(before).write_units).toBe(8);

  // An update that shrinks a 1.5 KB item is billed for the item before it; a delete for what it deletes; a condition check too.
  before = reading();
  await deps.db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Update: { TableName: deps.table, Key: { pk: run, sk: 'L#1' }, UpdateExpression: 'SET filler = :p', ExpressionAttributeValues: { ':p': 'y' } } },
        { Delete: { TableName: deps.table, Key: { pk: run, sk: 'L#2' } } },
        { ConditionCheck: { TableName: deps.table, Key: { pk: run, sk: 'S#1' }, ConditionExpression: 'attribute_exists(pk)' } },
      ],
    }),
  );
  expect(since(before).write_units).toBe(4 + 4 + 2);

  // A single write is counted from what DynamoDB Local reports: a 1.5 KB put is 2.
  before = reading();
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: large(3) }));
  expect(since(before).write_units).toBe(2);
});
