import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { outboxPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import { deleteItem, itemAbsent, itemExists, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import type { JobMessage, JobRecord } from './jobs.js';
import { jobKeys } from './jobs.js';
import { jobKind, taskOutboxKind } from './kinds.js';

/**
 * Jobs of a kind that queue instead of being refused (`waitList` on the
 * kind): while one runs, the next ones wait in the client's partition,
 * oldest first, with their task messages, and the running marker counts
 * them, so joining is conditioned on that count (race-safe). The
 * transaction that closes the running job hands its marker to the oldest
 * waiting one and queues that job's messages; only when none waits is the
 * marker deleted.
 */

/** A waiting job's messages go out in the closing transaction, beside the closing job's few parts. */
export const MAX_WAITING_MESSAGES = 90;

export type Joined = 'joined' | 'marker-gone';

/**
 * Puts the job on its kind's wait list behind the running one: the job
 * (queued), the caller's own parts and the waiting item with its messages,
 * and one more on the marker's count, which must stay under `max`. Answers
 * 'marker-gone' when the running job ended meanwhile (start it now instead);
 * a full list is the kind's refusal.
 */
export async function joinWaitList(
  deps: Deps,
  job: JobRecord,
  jobAndOwnParts: Part[],
  messages: JobMessage[],
  waitList: { max: number; full: (max: number) => Error },
): Promise<Joined> {
  if (messages.length > MAX_WAITING_MESSAGES)
    throw new Error(`A waiting ${job.kind} job has ${messages.length} task messages; at most ${MAX_WAITING_MESSAGES}`);
  const marker = jobKeys.running(job.clientId, job.family, job.kind);
  try {
    await transact(deps, [
      ...jobAndOwnParts,
      part(
        'marker',
        updateItem(
          deps,
          marker,
          { add: { waiting: 1 } },
          {
            expression: 'attribute_exists(pk) AND (attribute_not_exists(#waiting) OR #waiting < :max)',
            names: { '#waiting': 'waiting' },
            values: { ':max': waitList.max },
          },
        ),
      ),
      part(
        'waiting',
        putItem(
          deps,
          {
            ...jobKeys.waiting(job.clientId, job.family, job.kind, job.id),
            entity: 'job-waiting',
            job_id: job.id,
            messages: JSON.stringify(messages),
            created_at: job.createdAt,
          },
          itemAbsent,
        ),
      ),
    ]);
    return 'joined';
  } catch (err) {
    if (!(err instanceof TransactionFailed && err.has('marker'))) throw err;
    if (err.failed.get('marker')) throw waitList.full(waitList.max);
    return 'marker-gone';
  }
}

/**
 * The closing transaction's marker part(s): the marker handed to the oldest
 * waiting job, whose messages are queued, or deleted when none waits. Both
 * are conditioned on the marker as read (this job's, and the count), so a
 * job that joins meanwhile makes the close run again.
 */
export async function releaseParts(deps: Deps, job: JobRecord): Promise<Part[]> {
  const marker = jobKeys.running(job.clientId, job.family, job.kind);
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(job.clientId), ':p': jobKeys.waitingPrefix(job.family, job.kind) },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const next = Items[0];
  if (!next) {
    return [
      part(
        'marker',
        deleteItem(deps, marker, {
          expression: 'job_id = :job AND (attribute_not_exists(#waiting) OR #waiting = :none)',
          names: { '#waiting': 'waiting' },
          values: { ':job': job.id, ':none': 0 },
        }),
      ),
    ];
  }
  const messages = JSON.parse(String(next.messages)) as JobMessage[];
  return [
    part(
      'marker',
      updateItem(
        deps,
        marker,
        { set: { job_id: Number(next.job_id), created_at: deps.clock().toISOString() }, add: { waiting: -1 } },
        { expression: 'job_id = :job', values: { ':job': job.id } },
      ),
    ),
    part('waiting', deleteItem(deps, { pk: String(next.pk), sk: String(next.sk) }, itemExists)),
    ...messages.map((m, n) => part(`next-tasks-${n}`, outboxPut(deps, taskOutboxKind(jobKind(job.kind)), m.id, m))),
  ];
}
