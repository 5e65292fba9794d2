import { registerSubjectRunners } from '../core/data-rights/runner.js';
import { jobsConsumer } from '../core/jobs/tasks.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { DATA_SUBJECT_ADAPTERS } from '../core/registries/data-subject-adapters.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/**
 * SQS consumer of the subject-jobs queue: data subject exports and erasures,
 * one task a job, run by the jobs engine with each family's adapter.
 */
registerSubjectRunners(DATA_SUBJECT_ADAPTERS);
const log = createLogger({ worker: 'subject-jobs' });

export const handler = sqsBatchHandler(
  jobsConsumer(depsFromEnv(), (err, messageId) => log.error('data subject task failed', { message_id: messageId, ...errorFields(err) })),
  log,
);
