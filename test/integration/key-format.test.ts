import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureKeyFormat, ensureTable, OldKeyFormatError } from '../../lib/local/provision.js';
import { startLocalStack } from '../../lib/local/stack.js';
import { uniqueName, useEmulatorEnv } from '../support/env.js';

/** A table left in DATA_DIR by a version with other keys is refused with what to do; a current one starts. */

beforeAll(() => useEmulatorEnv());

async function freshTable() {
  const table = uniqueName('keys');
  await ensureTable(new DynamoDBClient({}), table);
  return table;
}

it('refuses to start on a table written under the old keys, saying to remove the data directory', async () => {
  const table = await freshTable();
  // What the previous version left: its booking counter, under a key without the family.
  await new DynamoDBClient({}).send(new PutItemCommand({ TableName: table, Item: { pk: { S: 'COUNTER#booking' }, sk: { S: 'COUNTER' }, value: { N: '3' } } }));
  const dataDir = mkdtempSync(join(tmpdir(), 'old-keys-'));
  const started = startLocalStack({
    port: 0,
    dataDir,
    dynamoEndpoint: process.env.TEST_DYNAMODB_ENDPOINT,
    sqsEndpoint: process.env.TEST_SQS_ENDPOINT,
    tableName: table,
    queuePrefix: uniqueName('keys'),
  });
  await expect(started).rejects.toThrow(OldKeyFormatError);
  await expect(started).rejects.toThrow(`rm -rf ${dataDir}`);
});

it('marks an empty table with the current format, and accepts it with data in it on every later start', async () => {
  const table = await freshTable();
  const client = new DynamoDBClient({});
  await Promise.all([ensureKeyFormat(client, table, '.data'), ensureKeyFormat(client, table, '.data')]);
  await client.send(
    new PutItemCommand({ TableName: table, Item: { pk: { S: 'COUNTER#clinical-interview#booking' }, sk: { S: 'COUNTER' }, value: { N: '3' } } }),
  );
  await expect(ensureKeyFormat(client, table, '.data')).resolves.toBeUndefined();
});
