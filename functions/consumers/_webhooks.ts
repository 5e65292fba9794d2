import { depsFromEnv } from '../core/platform/deps.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { deliveryConfigFromEnv, laneQueuesFromEnv } from '../core/webhooks/delivery.js';
import { deliver } from '../core/webhooks/delivery-steps.js';
import { fanOut } from '../core/webhooks/fan-out.js';
import type { Lane } from '../core/webhooks/retry.js';
import { createLogger, errorFields, type Logger } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/** The webhook consumers as SQS event source handlers; the Lambda modules beside this one wire them from the environment. */

/** `log` (last) writes each message's line; the fan-out worker names itself there. */
export const fanOutHandler = (...[deps, sqs, lanes, onError, log]: [...Parameters<typeof fanOut>, Logger?]) =>
  sqsBatchHandler(fanOut(deps, sqs, lanes, onError), log);

export const deliveryHandler = (...args: Parameters<typeof deliver>) => sqsBatchHandler(deliver(...args));

/** The delivery worker of one lane, configured from the environment. */
export function deliveryWorker(lane: Lane) {
  const log = createLogger({ service: 'agency-api', worker: lane === 'fast' ? 'webhook-delivery' : 'webhook-delivery-slow' });
  return sqsBatchHandler(
    deliver(depsFromEnv(), createSqsClient(), laneQueuesFromEnv(lane), deliveryConfigFromEnv(), (err, messageId) =>
      log.error('delivery failed', { message_id: messageId, lane, ...errorFields(err) }),
    ),
    log,
  );
}
