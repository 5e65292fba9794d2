import { depsFromEnv } from '../core/platform/deps.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { lanesFromEnv } from '../core/webhooks/delivery.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { fanOutHandler } from './_webhooks.js';

/** SQS consumer of the events queue: one delivery message per subscribed active endpoint, in its lane. */
const log = createLogger({ service: 'agency-api', worker: 'event-fanout' });

export const handler = fanOutHandler(
  depsFromEnv(),
  createSqsClient(),
  lanesFromEnv(),
  (err, messageId) => log.error('fan-out failed', { message_id: messageId, ...errorFields(err) }),
  log,
);
