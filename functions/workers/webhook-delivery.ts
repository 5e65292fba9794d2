import { requireEnv } from '../core/config.js';
import { depsFromEnv } from '../core/deps.js';
import { createSqsClient, queueUrlEnv } from '../core/sqs.js';
import { deliveryConfigFromEnv, deliveryHandler } from '../core/webhook-delivery.js';
import { createLogger, errorFields } from '../middleware/logger.js';

/** SQS consumer of the deliveries queue: signed POSTs, retried on the schedule by visibility changes. */
const log = createLogger({ service: 'agency-api', worker: 'webhook-delivery' });

export const handler = deliveryHandler(depsFromEnv(), createSqsClient(), requireEnv(queueUrlEnv('deliveries')), deliveryConfigFromEnv(), (err, record) =>
  log.error('delivery failed', { message_id: record.messageId, ...errorFields(err) }),
);
