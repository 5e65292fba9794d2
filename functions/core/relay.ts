import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { OutboxItem } from './outbox.js';

/**
 * Moves committed outbox items to their queues: events to the fan-out queue,
 * e-mails to the e-mail queue. Used by the stream handler in the cloud and by
 * the poller in the local stack. At least once: a crash after sending and
 * before recording sends again, and consumers de-duplicate by id.
 */
export interface RelayTargets {
  sqs: SQSClient;
  eventsQueueUrl: string;
  emailsQueueUrl: string;
}

export async function relayOutbox(items: OutboxItem[], targets: RelayTargets): Promise<void> {
  const byQueue = new Map<string, OutboxItem[]>();
  for (const item of items) {
    const url = item.kind === 'event' ? targets.eventsQueueUrl : targets.emailsQueueUrl;
    byQueue.set(url, [...(byQueue.get(url) ?? []), item]);
  }
  for (const [queueUrl, queued] of byQueue) {
    for (let i = 0; i < queued.length; i += 10) {
      const batch = queued.slice(i, i + 10);
      const result = await targets.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((item, n) => ({ Id: String(n), MessageBody: item.payload })),
        }),
      );
      if (result.Failed?.length) {
        throw new Error(`Could not queue ${result.Failed.length} outbox item(s): ${result.Failed.map((f) => f.Message).join('; ')}`);
      }
    }
  }
}
