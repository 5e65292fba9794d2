import { depsFromEnv } from '../core/deps.js';
import { requireEnv } from '../core/config.js';
import { createSqsClient, queueUrlEnv } from '../core/sqs.js';
import { fanOutHandler } from '../core/webhook-delivery.js';
import { createLogger, errorFields } from '../middleware/logger.js';

/** SQS consumer of the events queue: one delivery message per subscribed active endpoint. */
const log = createLogger({ service: 'agency-api', worker: 'event-fanout' });

export const handler = fanOutHandler(depsFromEnv(), createSqsClient(), requireEnv(queueUrlEnv('deliveries')), (err, record) =>
  log.error('fan-out failed', { message_id: record.messageId, ...errorFields(err) }),
);
