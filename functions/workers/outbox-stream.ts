import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { queueUrlEnv, requireEnv } from '../core/platform/config.js';
import type { OutboxItem } from '../core/events/outbox.js';
import { outboxQueueUrls, relayOutbox } from '../core/events/relay.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { createLogger, errorFields } from '../middleware/logger.js';

/**
 * The table's stream, filtered to new outbox items (see the data stack), to
 * the queues, ten to a request. If any item could not be queued, the batch is
 * reported from the first of those, so the stream retries from there in order
 * (items after it that were queued go again: consumers de-duplicate by id).
 */
const targets = {
  sqs: createSqsClient(),
  queueUrls: outboxQueueUrls((queue) => requireEnv(queueUrlEnv(queue))),
};
const log = createLogger({ service: 'agency-api', worker: 'outbox-stream' });

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const items: { item: OutboxItem; sequenceNumber: string }[] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>) as OutboxItem;
    if (item.entity === 'outbox') items.push({ item, sequenceNumber: record.dynamodb!.SequenceNumber! });
  }
  const { notQueued, error } = await relayOutbox(items.map((i) => i.item), targets);
  const first = items.find((i) => notQueued.includes(i.item));
  if (!first) return { batchItemFailures: [] };
  log.error('outbox relay failed', { not_queued: notQueued.length, ...errorFields(error) });
  return { batchItemFailures: [{ itemIdentifier: first.sequenceNumber }] };
}
