import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CreateQueueCommand, DeleteMessageBatchCommand, DeleteQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../functions/core/platform/deps.js';
import { chunksOf } from '../../functions/core/platform/db.js';
import { postSigned, type Receiver } from './receiver.js';

/**
 * The floor for webhook delivery: the least a queue-based delivery can do per
 * event, on the same emulators and receiver: events sent ten to a request to
 * one queue; `consumers` loops (as many as the delivery lane has pollers)
 * each receive ten, POST each one signed, delete the ten in one request and
 * write one log item per event in one batched write. Events per second from
 * the first send until the receiver has them all.
 */
export async function barePipeline(
  deps: Deps,
  sqs: SQSClient,
  receiver: Receiver,
  events: number,
  consumers: number,
): Promise<number> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bench-bare-${randomUUID().slice(0, 8)}` }));
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const body = (id: string) => JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { id } });
  let done = false;
  const consume = async () => {
    while (!done) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      if (!Messages.length) continue;
      await Promise.all(Messages.map((m) => postSigned(receiver.url, secret, m.MessageId!, m.Body!)));
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
      await deps.db.send(
        new BatchWriteCommand({
          RequestItems: { [deps.table]: Messages.map((m) => ({ PutRequest: { Item: { pk: `BENCH_LOG#${m.MessageId}`, sk: 'ATTEMPT', status: 200, at: new Date().toISOString(), ttl: Math.floor(Date.now() / 1000) + 3600 } } })) },
        }),
      );
    }
  };
  receiver.reset();
  const started = Date.now();
  const loops = Array.from({ length: consumers }, consume);
  try {
    await Promise.all(chunksOf(Array.from({ length: events }, (_, i) => i), 10).map((batch) => sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: batch.map((i) => ({ Id: String(i), MessageBody: body(`evt_${i}`) })) }))));
    return await receiver.rateOf(events, started, 'through the bare pipeline');
  } finally {
    // The consumers stop before their queue goes, however the run ended.
    done = true;
    await Promise.all(loops);
    await sqs.send(new DeleteQueueCommand({ QueueUrl }));
  }
}
