import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunksOf } from '../platform/db.js';
import type { OutboxItem } from './outbox.js';

/**
 * Moves committed outbox items to their queues: events to the fan-out queue,
 * e-mails to the e-mail queue, ten to a request. Used by the stream handler in
 * the cloud and by the poller in the local stack. At least once: a crash after
 * sending and before recording sends again, and consumers de-duplicate by id.
 */
export interface RelayTargets {
  sqs: SQSClient;
  eventsQueueUrl: string;
  emailsQueueUrl: string;
}

/** Queues the items; returns those that could not be queued (empty when all were), with the first error. */
export async function relayOutbox(items: OutboxItem[], targets: RelayTargets): Promise<{ notQueued: OutboxItem[]; error?: unknown }> {
  const byQueue = Map.groupBy(items, (item) => (item.kind === 'event' ? targets.eventsQueueUrl : targets.emailsQueueUrl));
  const notQueued = new Set<OutboxItem>();
  let error: unknown;
  await Promise.all(
    [...byQueue].flatMap(([queueUrl, queued]) =>
      chunksOf(queued, 10).map(async (batch) => {
        try {
          const result = await targets.sqs.send(
            new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch.map((item, n) => ({ Id: String(n), MessageBody: item.payload })) }),
          );
          for (const f of result.Failed ?? []) {
            notQueued.add(batch[Number(f.Id)]!);
            error ??= new Error(`Could not queue an outbox item: ${f.Code} ${f.Message ?? ''}`);
          }
        } catch (err) {
          batch.forEach((item) => notQueued.add(item));
          error ??= err;
        }
      }),
    ),
  );
  return { notQueued: items.filter((item) => notQueued.has(item)), error };
}
