import { eventPut } from '../events/outbox.js';
import { getJob, jobView, startJob } from '../jobs/jobs.js';
import { registerJobKind, type JobKind } from '../jobs/kinds.js';
import type { Deps } from '../platform/deps.js';
import { part } from '../platform/transact.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { activeWorkers } from './workers.js';

/**
 * Batch verification: a job of the jobs engine whose
 * tasks are worker ids. Each task is a queued check claimed on (job, worker),
 * so a redelivered task runs the same check or finds it done, and bills once
 * (`batch-tasks.ts`, which the jobs worker loads). Foreign and archived
 * workers are skipped; one running job per client.
 */

export const BATCH_KIND = 'monitoring-verification';

/** Its tasks are worker ids. */
export const batchKind: JobKind<number> = {
  name: BATCH_KIND,
  family: FAMILY,
  // A check may take the register's whole budget: 10 to a message stay well inside the queue's time-out.
  tasksPerMessage: 10,
  closed: (deps, job) => [
    part('event', eventPut(deps, { type: 'verification_job.completed', family: FAMILY, client_id: job.clientId, data: jobView(deps, job) })),
  ],
};
registerJobKind(batchKind);

export type BatchInput = { worker_ids: number[] } | { all: true };

/** POST /verification-jobs: the job, queued (202); `job-running` while another runs. */
export async function startBatch(deps: Deps, clientId: string, input: BatchInput, requestedBy: number | null) {
  const ids = 'all' in input ? (await activeWorkers(deps, clientId, 'id')).map((w) => Number(w.id)) : [...new Set(input.worker_ids)];
  const job = await startJob(deps, { family: FAMILY, kind: BATCH_KIND, clientId, requestedBy: requestedBy === null ? null : String(requestedBy), tasks: ids });
  return batchView(jobView(deps, job));
}

/** The job as a poll shows it: `requested_by` is a team user's id. */
const batchView = (view: ReturnType<typeof jobView>) => ({ ...view, requested_by: view.requested_by === null ? null : Number(view.requested_by) });

/** GET /verification-jobs/{id}: another client's job, or another kind's, is not found. */
export const getBatch = async (deps: Deps, clientId: string, id: number) =>
  batchView((await getJob(deps, clientId, FAMILY, id, { kind: BATCH_KIND })) as ReturnType<typeof jobView>);
