import { CreateQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { createSqsClient } from '../../functions/core/platform/sqs.js';
import { startPoller } from '../../lib/local/pollers.js';
import { queueArn } from '../../lib/local/provision.js';
import { uniqueName, useEmulatorEnv } from '../support/env.js';
import { eventually } from '../support/eventually.js';

let sqs: SQSClient;

beforeAll(() => {
  useEmulatorEnv();
  sqs = createSqsClient();
});

async function queueWithDlq(maxReceiveCount: number) {
  const name = uniqueName('poll');
  const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const queue = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await queueArn(sqs, dlq.QueueUrl!), maxReceiveCount }),
      },
    }),
  );
  return { url: queue.QueueUrl!, arn: await queueArn(sqs, queue.QueueUrl!), dlqUrl: dlq.QueueUrl! };
}

describe('the local SQS event source', () => {
  it('deletes what succeeded, redelivers reported failures, and moves a poison message to the DLQ', async () => {
    const queue = await queueWithDlq(2);
    const received: string[] = [];
    const batchSizes: number[] = [];
    const worker = async (event: SQSEvent) => {
      batchSizes.push(event.Records.length);
      received.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      return { batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({ itemIdentifier: r.messageId })) };
    };
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: ['a', 'b', 'poison'].map((body, i) => ({ Id: String(i), MessageBody: body })),
      }),
    );
    const poller = startPoller({ sqs, queueUrl: queue.url, queueArn: queue.arn, batchSize: 10, worker, waitSeconds: 1 });
    try {
      await eventually(() => received.filter((r) => r.startsWith('poison')).length >= 2, {
        timeoutMs: 15_000,
        what: 'the second receive of the poison message',
      });
      const dlq = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, WaitTimeSeconds: 5 }));
      expect(dlq.Messages?.map((m) => m.Body)).toEqual(['poison']);
    } finally {
      await poller.stop();
    }
    // The good records were delivered once each; the poison one exactly maxReceiveCount times.
    expect(received.filter((r) => !r.startsWith('poison')).sort()).toEqual(['a#1', 'b#1']);
    expect(received.filter((r) => r.startsWith('poison'))).toEqual(['poison#1', 'poison#2']);
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
  });

  it('treats a worker that throws as a failure of the whole batch', async () => {
    const queue = await queueWithDlq(5);
    let calls = 0;
    const bodies: string[] = [];
    const worker = async (event: SQSEvent) => {
      calls++;
      if (calls === 1) throw new Error('worker crashed');
      bodies.push(...event.Records.map((r) => r.body));
    };
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queue.url, Entries: [{ Id: '1', MessageBody: 'kept' }] }));
    const errors: unknown[] = [];
    const poller = startPoller({ sqs, queueUrl: queue.url, queueArn: queue.arn, batchSize: 10, worker, waitSeconds: 1, onError: (e) => errors.push(e) });
    try {
      await eventually(() => bodies.length > 0, { timeoutMs: 15_000, what: 'the redelivered batch' });
    } finally {
      await poller.stop();
    }
    expect(bodies).toEqual(['kept']);
    expect(errors).toHaveLength(1);
  });
});
