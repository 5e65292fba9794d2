import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { CORRELATION_ATTRIBUTE, withCorrelationId } from '../core/platform/correlation.js';
import type { BatchConsumer, QueueMessage } from '../core/platform/sqs.js';
import { createLogger, type Logger } from '../middleware/logger.js';

/** The Lambda side of an SQS event source, so that core sees plain messages and answers with the ids that failed. */

export const queueMessageOf = (record: SQSRecord): QueueMessage => ({
  id: record.messageId,
  body: record.body,
  receiveCount: Number(record.attributes?.ApproximateReceiveCount || 1),
  receiptHandle: record.receiptHandle,
  correlationId: record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue || undefined,
});

/**
 * Failed messages are reported as batch item failures: SQS delivers them
 * again, and in the end to the dead-letter queue. One log line per message
 * names the request it comes from; a batch that comes from one request
 * (the usual case) runs as that request, so its own log lines and the
 * messages it sends on carry its id too.
 */
export function sqsBatchHandler(consume: BatchConsumer, log: Logger = createLogger()) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const messages = event.Records.map(queueMessageOf);
    const ids = new Set(messages.map((m) => m.correlationId));
    const failed = await withCorrelationId(ids.size === 1 ? [...ids][0] : undefined, () => consume(messages));
    for (const m of messages)
      log.info('message handled', {
        message_id: m.id,
        receive_count: m.receiveCount,
        outcome: failed.has(m.id) ? 'failed' : 'done',
        ...(m.correlationId ? { correlation_id: m.correlationId } : {}),
      });
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
