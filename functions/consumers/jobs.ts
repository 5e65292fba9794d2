import { jobsConsumer } from '../core/jobs/tasks.js';
// Each kind's task runner registers itself (and its kind) when its module loads.
import '../core/registration-monitoring/imports-tasks.js';
import '../core/registration-monitoring/batch-tasks.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/**
 * SQS consumer of the jobs queue: each message is a run of one job's tasks,
 * dispatched to its kind's task runner. Every runner registers itself when
 * its module loads, so each one's module is imported here (registration
 * monitoring's batch verification and imports). Data subject requests have
 * their own queue and consumer (subject-jobs.ts).
 */
const log = createLogger({ worker: 'jobs' });

export const handler = sqsBatchHandler(
  jobsConsumer(depsFromEnv(), (err, messageId) => log.error('job task failed', { message_id: messageId, ...errorFields(err) })),
  log,
);
