import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { withCorrelationId } from '../platform/correlation.js';
import { jobTaskRun } from '../platform/metrics.js';
import { queryAll, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { batchFailures, type BatchConsumer, type QueueMessage } from '../platform/sqs.js';
import { allOf, itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Condition, type TransactItem } from '../platform/transact.js';
import { releaseParts } from './wait-list.js';
import { closedParts, jobKeys, readJob, type JobMessage, type JobRecord, type JobRef } from './jobs.js';
import { jobKind, taskRunner, type JobKind, type TaskResult } from './kinds.js';
import { allCounted, closingStatus, exhaustedDetail, failureEntry, lastAttempt, MAX_FAILURES, OPEN_STATUSES, type JobFailure } from './rules.js';

/**
 * The jobs queue's side: run a message's tasks, count each exactly once, and
 * close the job when the last one is counted.
 */

/** Task markers outlive any redelivery (and a redrive from the dead-letter queue, kept 14 days). */
const TASK_MARKER_SECONDS = 30 * 86_400;

/** The job takes counts: it is queued or running. */
const jobOpen: Condition = {
  expression: '#status IN (:queued, :running)',
  names: { '#status': 'status' },
  values: { ':queued': 'queued', ':running': 'running' },
};
/** Room for one more failure among the first ones kept. */
const failuresBelowMax: Condition = { expression: 'size(failures) < :maxFailures', values: { ':maxFailures': MAX_FAILURES } };
/** Nothing was counted since the job was read, and it is still running: the counts it closes with are final. */
const countsAre = (job: JobRecord): Condition => ({
  expression: '#status = :running AND #completed = :completed AND #errored = :errored AND #skipped = :skipped',
  names: { '#status': 'status', '#completed': 'completed', '#errored': 'errored', '#skipped': 'skipped' },
  values: { ':running': 'running', ':completed': job.counts.completed, ':errored': job.counts.errored, ':skipped': job.counts.skipped },
});

/** The count of one task: its outcome added, the job running, and (if it errored) its failure kept while there is room. */
function countUpdate(deps: Deps, ref: JobRef, result: TaskResult, failure: JobFailure | undefined, now: string): TransactItem {
  const when = failure ? allOf(jobOpen, failuresBelowMax) : jobOpen;
  const set = ['#status = :running', 'updated_at = :now', 'started_at = if_not_exists(started_at, :now)'];
  if (failure) set.push('failures = list_append(failures, :failure)');
  return {
    Update: {
      TableName: deps.table,
      Key: jobKeys.job(ref.clientId, ref.family, ref.id),
      UpdateExpression: `SET ${set.join(', ')} ADD #outcome :one`,
      ConditionExpression: when.expression,
      ExpressionAttributeNames: { ...when.names, '#outcome': result.outcome },
      ExpressionAttributeValues: { ...when.values, ':now': now, ':one': 1, ...(failure ? { ':failure': [failure] } : {}) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export type Counted = 'counted' | 'already-counted' | 'job-closed';

/**
 * Counts one task: its marker (put if absent) and the job's count in one
 * transaction, so a redelivered task is counted once. When the first 100
 * failures are already kept, the count goes in without the failure.
 */
export async function countTask(deps: Deps, ref: JobRef, index: number, task: unknown, result: TaskResult): Promise<Counted> {
  let failure = result.outcome === 'errored' ? failureEntry(task, result.detail ?? '') : undefined;
  return retryOnConflict(async () => {
    const now = deps.clock();
    const marker = {
      ...jobKeys.task(ref.family, ref.id, index),
      entity: 'job-task',
      index,
      outcome: result.outcome,
      ...(result.detail ? { detail: failureEntry(task, result.detail).detail } : {}),
      counted_at: now.toISOString(),
      ttl: toEpochSeconds(addSeconds(now, TASK_MARKER_SECONDS)),
    };
    try {
      await transact(deps, [part('task', putItem(deps, marker, itemAbsent)), part('job', countUpdate(deps, ref, result, failure, now.toISOString()))]);
      return 'counted';
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      if (err.has('task')) return 'already-counted';
      if (err.has('job')) {
        const old = err.failed.get('job');
        if (!old || !OPEN_STATUSES.includes(old.status as JobRecord['status']) || !failure) return 'job-closed';
        // Open, so the failures are full: count without keeping this one.
        failure = undefined;
      }
      throw err;
    }
  });
}

/**
 * Closes the job once every task is counted: status from the counts,
 * `finished_at`, the running marker freed and the kind's closing parts, in
 * one transaction conditioned on the counts it read. When two last tasks race
 * here, one closes and the other finds the job closed. True if this call closed it.
 */
export async function closeIfDone(deps: Deps, kind: JobKind, ref: JobRef): Promise<boolean> {
  return retryOnConflict(async () => {
    const job = await readJob(deps, ref);
    if (!job || job.status !== 'running' || !allCounted(job.counts)) return false;
    const now = deps.clock().toISOString();
    const closed: JobRecord = { ...job, status: closingStatus(job.counts), finishedAt: now };
    await transact(deps, [
      part(
        'job',
        updateItem(deps, jobKeys.job(ref.clientId, ref.family, ref.id), { set: { status: closed.status, finished_at: now, updated_at: now } }, countsAre(job)),
      ),
      ...(await releaseParts(deps, job)),
      ...(await closedParts(deps, kind, closed)),
    ]);
    return true;
  });
}

/** The indexes of a message's tasks that are already counted. */
async function countedIndexes(deps: Deps, message: JobMessage): Promise<Set<number>> {
  const last = message.first + message.tasks.length - 1;
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': jobKeys.task(message.family, message.job_id, message.first).pk,
      ':from': jobKeys.task(message.family, message.job_id, message.first).sk,
      ':to': jobKeys.task(message.family, message.job_id, last).sk,
    },
    ProjectionExpression: '#index',
    ExpressionAttributeNames: { '#index': 'index' },
    ConsistentRead: true,
  });
  return new Set(items.map((i) => Number(i.index)));
}

/**
 * Runs the tasks of one message that are not counted yet, counting each as it
 * ends. A task that throws leaves the message to be delivered again (its
 * siblings still run and count); on the last receive it is counted as
 * errored instead, so the job closes. Throws the first such error.
 */
export async function runJobMessage(deps: Deps, queued: QueueMessage, onError: (err: unknown) => void = () => undefined): Promise<void> {
  const message = JSON.parse(queued.body) as JobMessage;
  const kind = jobKind(message.kind);
  const run = taskRunner(message.kind);
  const ref: JobRef = { clientId: message.client_id, family: message.family, id: message.job_id };
  const job = await readJob(deps, ref);
  if (!job) throw new Error(`Job ${message.family}/${message.job_id} of ${message.client_id} does not exist`);
  if (!OPEN_STATUSES.includes(job.status)) return;
  const counted = await countedIndexes(deps, message);
  let retry: { error: unknown } | undefined;
  for (const [n, task] of message.tasks.entries()) {
    const index = message.first + n;
    if (counted.has(index)) continue;
    let result: TaskResult;
    try {
      result = await run(deps, task, { job, index, receive: queued.receiveCount });
    } catch (err) {
      if (!lastAttempt(queued.receiveCount)) {
        retry ??= { error: err };
        continue;
      }
      onError(err);
      result = { outcome: 'errored', detail: exhaustedDetail(queued.receiveCount) };
    }
    await countTask(deps, ref, index, task, result);
    jobTaskRun(message.kind, result.outcome);
  }
  // Also after a redelivery that found everything counted: a crash may have come between the last count and the close.
  await closeIfDone(deps, kind, ref);
  if (retry) throw retry.error;
}

/** The jobs queue's consumer: a message whose tasks did not all end is reported, so SQS delivers it again. */
export function jobsConsumer(deps: Deps, onError: (err: unknown, messageId: string) => void = () => undefined): BatchConsumer {
  return async (messages) => {
    const { failed, fail } = batchFailures(onError);
    await Promise.all(
      messages.map((queued) =>
        withCorrelationId(queued.correlationId, () => runJobMessage(deps, queued, (err) => onError(err, queued.id)).catch((err) => fail(queued, err))),
      ),
    );
    return failed;
  };
}
