import { deliveryWorker } from './_webhooks.js';

/** SQS consumer of the slow lane: deliveries to endpoints whose latest attempt failed, retried on the schedule by visibility changes. */
export const handler = deliveryWorker('slow');
