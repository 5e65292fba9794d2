import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { queueUrlEnv, requireEnv } from '../core/platform/config.js';
import { depsFromEnv, type Deps } from '../core/platform/deps.js';
import { PARKED_LOG_MESSAGE, type OutboxItem } from '../core/events/outbox.js';
import { parkOutboxItems } from '../core/events/parked.js';
import { outboxQueueUrls, relayOutbox } from '../core/events/relay.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { createLogger, errorFields } from '../middleware/logger.js';

/**
 * The table's stream, filtered to new outbox items (see the workers stack),
 * to the queues, ten to a request. An item the queue refuses on every try is
 * parked (a `relay-failed` record, and the log line `outbox item parked`
 * that the stack's alarm counts), and the stream goes on past it. If an item
 * could not be queued for any other reason (the queue service, the network),
 * the batch is reported from the first of those, so the stream retries from
 * there in order (items after it that were queued go again: consumers
 * de-duplicate by id).
 */
// The table is needed only to park an item, which is rare: read its configuration then.
let deps: Deps | undefined;
const targets = {
  sqs: createSqsClient(),
  queueUrls: outboxQueueUrls((queue) => requireEnv(queueUrlEnv(queue))),
};
const log = createLogger({ worker: 'outbox-stream' });

export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const items: { item: OutboxItem; sequenceNumber: string }[] = [];
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>) as OutboxItem;
    if (item.entity === 'outbox') items.push({ item, sequenceNumber: record.dynamodb!.SequenceNumber! });
  }
  const { notQueued, error, refused } = await relayOutbox(
    items.map((i) => i.item),
    targets,
  );
  const failed = new Set(notQueued);
  if (refused.length > 0) {
    try {
      const parked = await parkOutboxItems((deps ??= depsFromEnv()), refused, { removeFromOutbox: false });
      for (const { id, kind, client_id, reason } of parked) log.error(PARKED_LOG_MESSAGE, { id, kind, client_id, reason });
    } catch (err) {
      log.error('outbox relay could not park refused items', { refused: refused.length, ...errorFields(err) });
      refused.forEach(({ item }) => failed.add(item));
    }
  }
  const first = items.find((i) => failed.has(i.item));
  if (!first) return { batchItemFailures: [] };
  if (notQueued.length > 0) log.error('outbox relay failed', { not_queued: notQueued.length, ...errorFields(error) });
  return { batchItemFailures: [{ itemIdentifier: first.sequenceNumber }] };
}
