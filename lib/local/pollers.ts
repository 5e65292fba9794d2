import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { invoke } from './metering.js';

/**
 * Emulates a Lambda SQS event source mapping: receive a batch, invoke the
 * worker, delete what succeeded. A record the worker reports failed (or a
 * whole batch whose invocation threw) stays on the queue, comes back after
 * its visibility timeout, and moves to the dead-letter queue after
 * maxReceiveCount receives, as in the cloud.
 */

export type SqsWorker = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  worker: SqsWorker;
  onError?: (err: unknown) => void;
  /** Long-poll wait; short in tests so stopping is quick. */
  waitSeconds?: number;
}

export interface Poller {
  stop(): Promise<void>;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name, { dataType: value.DataType ?? 'String', stringValue: value.StringValue }]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: queueArn.split(':')[3] ?? 'local',
  };
}

export function startPoller(options: PollerOptions): Poller {
  const { sqs, queueUrl, queueArn, batchSize, worker } = options;
  const abort = new AbortController();
  let running = true;

  const loop = (async () => {
    while (running) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: options.waitSeconds ?? 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        if (Messages.length === 0) continue;
        const records = Messages.map((m) => toRecord(m, queueArn));
        let failed: Set<string>;
        try {
          const response = await invoke('worker', () => worker({ Records: records }));
          failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (err) {
          options.onError?.(err);
          failed = new Set(records.map((r) => r.messageId));
        }
        const done = records.filter((r) => !failed.has(r.messageId));
        if (done.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          );
        }
      } catch (err) {
        if (!running) break;
        options.onError?.(err);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  return {
    async stop() {
      running = false;
      abort.abort();
      await loop;
    },
  };
}
