import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunksOf } from '../platform/db.js';
import { OUTBOX_QUEUES, type OutboxItem, type OutboxKind } from './outbox.js';

/**
 * Moves committed outbox items to their queues (`OUTBOX_QUEUES`: events to
 * the fan-out queue, e-mails to the e-mail queue, job tasks to the jobs
 * queue), ten to a request. Used by the stream handler in
 * the cloud and by the poller in the local stack. At least once: a crash after
 * sending and before recording sends again, and consumers de-duplicate by id.
 */
export interface RelayTargets {
  sqs: SQSClient;
  /** The URL of each kind's queue. */
  queueUrls: Record<OutboxKind, string>;
}

/** Each outbox kind's queue URL, given the URL of a queue by its id. */
export const outboxQueueUrls = (urlOf: (queueId: string) => string) =>
  Object.fromEntries(Object.entries(OUTBOX_QUEUES).map(([kind, queue]) => [kind, urlOf(queue)])) as Record<OutboxKind, string>;

/** Queues the items; returns those that could not be queued (empty when all were), with the first error. */
export async function relayOutbox(items: OutboxItem[], targets: RelayTargets): Promise<{ notQueued: OutboxItem[]; error?: unknown }> {
  const byQueue = Map.groupBy(items, (item) => targets.queueUrls[item.kind]);
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
