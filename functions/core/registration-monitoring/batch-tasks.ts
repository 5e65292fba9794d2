import type { JobRecord } from '../jobs/jobs.js';
import { registerTaskRunner, type TaskResult } from '../jobs/kinds.js';
import type { Deps } from '../platform/deps.js';
import { batchKind } from './batch.js';
import { runQueuedCheck } from './queued-checks.js';

/**
 * A batch verification's task (batch.ts): one worker's check, claimed on
 * (job, worker). Loaded by the jobs worker only, so the API's job functions
 * carry no register checks.
 */

/** What a task came to, for the job's counts: a check that ran or was reused is completed; an error check is errored. */
async function runTask(deps: Deps, workerId: number, job: JobRecord): Promise<TaskResult> {
  const outcome = await runQueuedCheck(deps, job.clientId, workerId, {
    kind: 'job',
    jobId: job.id,
    requestedBy: job.requestedBy === null ? null : Number(job.requestedBy),
  });
  if (outcome.result === 'skipped') return { outcome: 'skipped', detail: `Worker ${workerId}: ${outcome.reason.replaceAll('_', ' ')}` };
  const { verification } = outcome;
  if (verification.status === 'error')
    return { outcome: 'errored', detail: `Worker ${workerId}: the register did not answer (${verification.error?.code ?? 'unavailable'})` };
  return { outcome: 'completed' };
}

registerTaskRunner(batchKind, (deps, workerId, { job }) => runTask(deps, workerId, job));
