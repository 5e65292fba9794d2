import { SQSClient } from '@aws-sdk/client-sqs';
import { withoutSdkLogging } from './sdk.js';

/**
 * The one way to make an SQS client. Requests go to the configured endpoint
 * (AWS_ENDPOINT_URL_SQS locally), not to the host inside a queue URL: the
 * local server's queue URLs name a host that does not resolve. In the cloud
 * the two are the same.
 */
export const createSqsClient = (): SQSClient => withoutSdkLogging(new SQSClient({ useQueueUrlAsEndpoint: false }));

/** A message as a consumer in core sees it; functions/consumers/_batch.ts makes it from an SQS record. */
export interface QueueMessage {
  id: string;
  body: string;
  /** 1 on the first receive. */
  receiveCount: number;
  /** Needed to change the message's visibility. */
  receiptHandle: string;
  /** The request the message comes from (platform/correlation.ts). */
  correlationId?: string;
}

/** Handles a batch; resolves to the ids of the messages that failed, which SQS will deliver again. */
export type BatchConsumer = (messages: QueueMessage[]) => Promise<Set<string>>;

/** Collects a batch's failed message ids; `onError` hears each message's first error. */
export function batchFailures(onError: (err: unknown, messageId: string) => void) {
  const failed = new Set<string>();
  const fail = (message: QueueMessage, err?: unknown) => {
    if (failed.has(message.id)) return;
    failed.add(message.id);
    if (err !== undefined) onError(err, message.id);
  };
  return { failed, fail };
}
