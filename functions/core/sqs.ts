import { SQSClient } from '@aws-sdk/client-sqs';

/**
 * The one way to make an SQS client. Requests go to the configured endpoint
 * (AWS_ENDPOINT_URL_SQS locally), not to the host inside a queue URL: the
 * local server's queue URLs name a host that does not resolve. In the cloud
 * the two are the same.
 */
export const createSqsClient = (): SQSClient => new SQSClient({ useQueueUrlAsEndpoint: false });

/** The environment variable that carries a queue's URL (queue ids are in lib/queues.ts). */
export const queueUrlEnv = (id: string): string => `QUEUE_URL_${id.toUpperCase()}`;
