import { depsFromEnv } from '../core/platform/deps.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { deliver, deliveryConfigFromEnv, fanOut, laneQueuesFromEnv } from '../core/webhooks/delivery.js';
import type { Lane } from '../core/webhooks/retry.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/** The webhook consumers as SQS event source handlers; the Lambda modules beside this one wire them from the environment. */

export const fanOutHandler = (...args: Parameters<typeof fanOut>) => sqsBatchHandler(fanOut(...args));

export const deliveryHandler = (...args: Parameters<typeof deliver>) => sqsBatchHandler(deliver(...args));

/** The delivery worker of one lane, configured from the environment. */
export function deliveryWorker(lane: Lane) {
  const log = createLogger({ service: 'agency-api', worker: lane === 'fast' ? 'webhook-delivery' : 'webhook-delivery-slow' });
  return deliveryHandler(depsFromEnv(), createSqsClient(), laneQueuesFromEnv(lane), deliveryConfigFromEnv(), (err, messageId) =>
    log.error('delivery failed', { message_id: messageId, lane, ...errorFields(err) }),
  );
}
