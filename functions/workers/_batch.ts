import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { BatchConsumer, QueueMessage } from '../core/platform/sqs.js';

/** The Lambda side of an SQS event source, so that core sees plain messages and answers with the ids that failed. */

export const queueMessageOf = (record: SQSRecord): QueueMessage => ({
  id: record.messageId,
  body: record.body,
  receiveCount: Number(record.attributes?.ApproximateReceiveCount || 1),
  receiptHandle: record.receiptHandle,
});

/** Failed messages are reported as batch item failures: SQS delivers them again, and in the end to the dead-letter queue. */
export function sqsBatchHandler(consume: BatchConsumer) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed = await consume(event.Records.map(queueMessageOf));
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
