import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { requireEnv } from '../core/config.js';
import type { OutboxItem } from '../core/outbox.js';
import { relayOutbox } from '../core/relay.js';
import { createSqsClient, queueUrlEnv } from '../core/sqs.js';

/**
 * The table's stream, filtered to new outbox items (see the data stack), to
 * the queues. On failure the batch is reported from the first failed record,
 * so the stream retries it in order.
 */
const targets = {
  sqs: createSqsClient(),
  eventsQueueUrl: requireEnv(queueUrlEnv('events')),
  emailsQueueUrl: requireEnv(queueUrlEnv('emails')),
};

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>) as OutboxItem;
    if (item.entity !== 'outbox') continue;
    try {
      await relayOutbox([item], targets);
    } catch {
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
}
