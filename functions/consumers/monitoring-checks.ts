import { depsFromEnv } from '../core/platform/deps.js';
import { checksConsumer } from '../core/registration-monitoring/queued-checks.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/** SQS consumer of the `checks` queue: the registration monitoring checks the dispatcher found due, one after another. */
const log = createLogger({ worker: 'monitoring-checks' });

export const handler = sqsBatchHandler(
  checksConsumer(depsFromEnv(), (err, messageId) => log.error('scheduled check failed', { message_id: messageId, ...errorFields(err) })),
  log,
);
