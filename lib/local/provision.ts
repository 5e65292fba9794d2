import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ResourceNotFoundException,
  ScanCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutBucketLifecycleConfigurationCommand, type S3Client } from '@aws-sdk/client-s3';
import { DOCUMENT_EXPIRIES } from '../../functions/core/documents/kinds.js';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { KEY_FORMAT_VERSION } from '../../functions/core/platform/key-registry.js';
import * as TABLE_KEYS from '../../functions/core/platform/table-keys.js';
import { TABLE_SCHEMA } from '../../functions/core/platform/table.js';
import { QUEUES, type QueueDefinition } from '../queues.js';

/** Creates the table and the queues locally from the same definitions the CDK stacks use. Idempotent. `ttl: false` leaves TTL off (tests on a clock of their own). */

export async function ensureTable(client: DynamoDBClient, tableName: string, options: { ttl?: boolean } = {}): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const keyNames = new Set<string>([
    TABLE_SCHEMA.partitionKey,
    TABLE_SCHEMA.sortKey,
    ...TABLE_SCHEMA.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]);
  const attributes: AttributeDefinition[] = [...keyNames].map((name) => ({ AttributeName: name, AttributeType: 'S' }));
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes,
      KeySchema: [
        { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_SCHEMA.globalIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  if (options.ttl === false) return;
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true },
    }),
  );
}

export class OldKeyFormatError extends Error {}

/**
 * Items keep their keys across `npm start`s in DATA_DIR. A table written
 * under another key format (or before formats were marked) would start and
 * then misbehave, so it is refused with what to do; an empty table is marked
 * with the current format. Run before anything writes to the table.
 */
export async function ensureKeyFormat(client: DynamoDBClient, tableName: string, dataDir: string): Promise<void> {
  const Key = { pk: { S: TABLE_KEYS.schema.pk }, sk: { S: TABLE_KEYS.schema.sk.version } };
  const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key, ConsistentRead: true }));
  const found = Item?.version?.N;
  if (found === String(KEY_FORMAT_VERSION)) return;
  // Any item but the marker (another starter may have just written it): of two items, at most one is the marker.
  const { Count = 0 } = await client.send(
    new ScanCommand({
      TableName: tableName,
      Limit: 2,
      Select: 'COUNT',
      FilterExpression: 'pk <> :marker',
      ExpressionAttributeValues: { ':marker': Key.pk },
    }),
  );
  if (Count > 0 || found !== undefined) {
    throw new OldKeyFormatError(
      `The table in ${dataDir} was written by an earlier version of this project, whose keys this one cannot read ` +
        `(key format ${found ?? 1}, now ${KEY_FORMAT_VERSION}). Stop the stack, remove that directory once ` +
        `(rm -rf ${dataDir}) and run npm start again: the demo data is seeded afresh.`,
    );
  }
  await client
    .send(
      new PutItemCommand({
        TableName: tableName,
        Item: { ...Key, entity: { S: 'key-format' }, version: { N: String(KEY_FORMAT_VERSION) } },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    .catch((err) => {
      if (!(err instanceof ConditionalCheckFailedException)) throw err; // a second starter marked it first
    });
}

export interface LocalQueue {
  id: string;
  url: string;
  arn: string;
  dlqUrl: string;
}

export async function ensureQueues(sqs: SQSClient, namePrefix: string, overrides: Record<string, Partial<QueueDefinition>> = {}): Promise<LocalQueue[]> {
  const queues: LocalQueue[] = [];
  for (const def of QUEUES.map((q) => ({ ...q, ...overrides[q.id] }))) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${namePrefix}-${def.id}-dlq` }));
    const dlqArn = await queueArn(sqs, dlq.QueueUrl!);
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: `${namePrefix}-${def.id}`,
        Attributes: {
          VisibilityTimeout: String(def.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: def.maxReceiveCount }),
        },
      }),
    );
    queues.push({ id: def.id, url: queue.QueueUrl!, arn: await queueArn(sqs, queue.QueueUrl!), dlqUrl: dlq.QueueUrl! });
  }
  return queues;
}

export async function queueArn(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
  return Attributes!.QueueArn!;
}

export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw err;
  }
  // The cloud bucket's rules, declared as S3 takes them (the emulator keeps them and does not run them).
  await s3.send(
    new PutBucketLifecycleConfigurationCommand({
      Bucket: bucket,
      LifecycleConfiguration: {
        Rules: DOCUMENT_EXPIRIES.map(({ id, prefix, days }) => ({
          ID: id,
          Status: 'Enabled',
          Filter: { Prefix: prefix },
          Expiration: { Days: days },
          NoncurrentVersionExpiration: { NoncurrentDays: days },
        })),
      },
    }),
  );
}
