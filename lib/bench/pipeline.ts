import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../functions/core/platform/deps.js';
import { chunksOf } from '../../functions/core/platform/db.js';
import { OUTBOX_SHARDS } from '../../functions/core/events/outbox.js';
import { postSigned, type Receiver } from './receiver.js';

/** Transactions committed at once while events are written (the same on both sides of the delivery ratio). */
const COMMITTERS = 16;

/**
 * Commits each event as a change commits it: one transaction of the changed
 * item and the event's item. Both sides of the delivery ratio commit their
 * events this way, so the ratio compares what happens after the commit.
 */
export async function commitEvents(deps: Deps, events: object[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: COMMITTERS }, async () => {
      for (let i = next++; i < events.length; i = next++) {
        await deps.db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: deps.table, Item: { pk: `BENCH_CHANGED#${i % 500}`, sk: 'ITEM', changed_at: new Date().toISOString() } } },
              { Put: { TableName: deps.table, Item: events[i] as Record<string, unknown> } },
            ],
          }),
        );
      }
    }),
  );
}

/**
 * The floor for webhook delivery: what any correct design must do per event,
 * on the same emulators and receiver. Each event is committed with the change
 * that caused it (`commitEvents`); a relay per outbox shard (as many as the
 * product's) reads the committed events, sends them ten to a request to one
 * queue and deletes them; `consumers` loops (as
 * many as the delivery lane has pollers) each receive ten, POST each one
 * signed, delete the ten in one request and write one log item per event in
 * one batched write. Events per second from the first commit until the
 * receiver has them all.
 */
export async function floorPipeline(deps: Deps, sqs: SQSClient, receiver: Receiver, events: number, consumers: number): Promise<number> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bench-floor-${randomUUID().slice(0, 8)}` }));
  const run = randomUUID().slice(0, 8);
  const outbox = (shard: number) => `BENCH_FLOOR_OUTBOX#${run}#${shard}`;
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  let done = false;
  const relay = async (shard: number) => {
    while (!done) {
      const { Items = [] } = await deps.db.send(
        new QueryCommand({ TableName: deps.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': outbox(shard) }, Limit: 100 }),
      );
      if (!Items.length) {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      await Promise.all(
        chunksOf(Items, 10).map((batch) =>
          sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: batch.map((item, i) => ({ Id: String(i), MessageBody: item.body as string })) })),
        ),
      );
      await Promise.all(
        chunksOf(Items, 25).map((batch) =>
          deps.db.send(
            new BatchWriteCommand({ RequestItems: { [deps.table]: batch.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })) } }),
          ),
        ),
      );
    }
  };
  const consume = async () => {
    while (!done) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      if (!Messages.length) continue;
      await Promise.all(Messages.map((m) => postSigned(receiver.url, secret, m.MessageId!, m.Body!)));
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
      await deps.db.send(
        new BatchWriteCommand({
          RequestItems: {
            [deps.table]: Messages.map((m) => ({
              PutRequest: {
                Item: { pk: `BENCH_LOG#${m.MessageId}`, sk: 'ATTEMPT', status: 200, at: new Date().toISOString(), ttl: Math.floor(Date.now() / 1000) + 3600 },
              },
            })),
          },
        }),
      );
    }
  };
  const items = Array.from({ length: events }, (_, i) => ({
    pk: outbox(i % OUTBOX_SHARDS),
    sk: `${String(i).padStart(8, '0')}`,
    body: JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { id: `evt_${run}_${i}` } }),
  }));
  receiver.reset();
  const started = Date.now();
  const loops = [...Array.from({ length: OUTBOX_SHARDS }, (_, shard) => relay(shard)), ...Array.from({ length: consumers }, consume)];
  try {
    await commitEvents(deps, items);
    return await receiver.rateOf(events, started, 'through the floor pipeline');
  } finally {
    // The loops stop before their queue goes, however the run ended.
    done = true;
    await Promise.all(loops);
    await sqs.send(new DeleteQueueCommand({ QueueUrl }));
  }
}
