import { jobsConsumer } from '../core/jobs/tasks.js';
import '../core/registration-monitoring/imports.js';
// Each kind registers itself when its module loads.
import '../core/registration-monitoring/batch.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/**
 * SQS consumer of the jobs queue: each message is a run of one job's tasks,
 * dispatched to its kind. Every kind it runs registers itself when its module
 * loads, so each kind's module is imported here (registration monitoring's
 * batch verification and imports will be the first).
 */
const log = createLogger({ service: 'agency-api', worker: 'jobs' });

export const handler = sqsBatchHandler(jobsConsumer(depsFromEnv(), (err, messageId) => log.error('job task failed', { message_id: messageId, ...errorFields(err) })));
