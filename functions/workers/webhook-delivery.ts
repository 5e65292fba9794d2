import { queueUrlEnv, requireEnv } from '../core/config.js';
import { depsFromEnv } from '../core/deps.js';
import { createSqsClient } from '../core/sqs.js';
import { deliveryConfigFromEnv } from '../core/webhook-delivery.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { deliveryHandler } from './_webhooks.js';

/** SQS consumer of the deliveries queue: signed POSTs, retried on the schedule by visibility changes. */
const log = createLogger({ service: 'agency-api', worker: 'webhook-delivery' });

export const handler = deliveryHandler(depsFromEnv(), createSqsClient(), requireEnv(queueUrlEnv('deliveries')), deliveryConfigFromEnv(), (err, messageId) =>
  log.error('delivery failed', { message_id: messageId, ...errorFields(err) }),
);
