import { deliveryWorker } from './_webhooks.js';

/** SQS consumer of the deliveries queue (the fast lane): signed POSTs; deliveries to failing endpoints move to the slow lane. */
export const handler = deliveryWorker('fast');
