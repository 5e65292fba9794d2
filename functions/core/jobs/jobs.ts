import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { clientKeys } from '../access/clients.js';
import { outboxPut } from '../events/outbox.js';
import { chunksOf } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { checkItem, itemAbsent, part, putItem, transact, TransactionFailed, type Part } from '../platform/transact.js';
import { joinWaitList } from './wait-list.js';
import { jobKind, taskOutboxKind, type JobKind } from './kinds.js';
import { closingStatus, maxTasks, MAX_TASK_BYTES, TASKS_PER_MESSAGE, type JobCounts, type JobFailure, type JobStatus } from './rules.js';

/**
 * Jobs: a piece of work split into tasks that run from the jobs queue, with
 * a status and counts a client polls. The job item lives in its client's
 * partition, so another client's job is simply not found.
 */

export interface JobRef {
  clientId: string;
  family: FamilyId;
  id: number;
}

export interface JobRecord extends JobRef {
  kind: string;
  status: JobStatus;
  counts: JobCounts;
  failures: JobFailure[];
  requestedBy: string | null;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
}

/** The engine's view of a job, as a poll shows it. */
export interface JobView {
  id: number;
  status: JobStatus;
  counts: JobCounts;
  failures: JobFailure[];
  requested_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One queue message: a run of a job's tasks, numbered from `first`. */
export interface JobMessage {
  id: string;
  kind: string;
  family: FamilyId;
  client_id: string;
  job_id: number;
  first: number;
  tasks: unknown[];
}

const CLIENT = TABLE_KEYS.client;
const TASK = TABLE_KEYS.jobTask;
export const jobKeys = {
  job: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.job, family, padId(id)) }),
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.job, family),
  /** Present while a job of this kind runs for the client: one at a time. */
  running: (clientId: string, family: FamilyId, kind: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.runningJob, family, kind) }),
  /** A job waiting its turn behind the running one of its kind (wait-list.ts), by id: oldest first. */
  waiting: (clientId: string, family: FamilyId, kind: string, id: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.waitingJob, family, kind, padId(id)),
  }),
  waitingPrefix: (family: FamilyId, kind: string) => key(CLIENT.sk.waitingJob, family, kind, ''),
  /** Put when a task is counted, so a redelivered task is not counted again. */
  task: (family: FamilyId, id: number, index: number) => ({ pk: key(TASK.pk, family, padId(id)), sk: key(TASK.sk.task, padId(index)) }),
};

type JobItem = {
  pk: string;
  sk: string;
  entity: 'job';
  kind: string;
  family: FamilyId;
  client_id: string;
  id: number;
  status: JobStatus;
  total: number;
  completed: number;
  errored: number;
  skipped: number;
  failures: JobFailure[];
  requested_by: string | null;
  created_at: string;
  updated_at: string;
  started_at?: string;
  finished_at?: string;
};

const toItem = (job: JobRecord, now: string): JobItem => ({
  ...jobKeys.job(job.clientId, job.family, job.id),
  entity: 'job',
  kind: job.kind,
  family: job.family,
  client_id: job.clientId,
  id: job.id,
  status: job.status,
  ...job.counts,
  failures: job.failures,
  requested_by: job.requestedBy,
  created_at: job.createdAt,
  updated_at: now,
  started_at: job.startedAt,
  finished_at: job.finishedAt,
});

export const fromJobItem = (item: JobItem): JobRecord => ({
  clientId: item.client_id,
  family: item.family,
  id: item.id,
  kind: item.kind,
  status: item.status,
  counts: { total: item.total, completed: item.completed, errored: item.errored, skipped: item.skipped },
  failures: item.failures ?? [],
  requestedBy: item.requested_by ?? null,
  createdAt: item.created_at,
  startedAt: item.started_at,
  finishedAt: item.finished_at,
});

/** A kind's closing parts beside the engine's own ("job", "marker"). */
export const closedParts = async (deps: Deps, kind: JobKind, job: JobRecord): Promise<Part[]> => (await kind.closed?.(deps, job)) ?? [];

const runningRefusal = (old: Record<string, unknown> | undefined) =>
  old && new DomainError('job-running', `Job ${String(old.job_id)} of this kind is still running; start another when it has finished`, { job_id: old.job_id });

export interface NewJob {
  family: FamilyId;
  kind: string;
  clientId: string;
  requestedBy?: string | null;
  tasks: readonly unknown[];
  /** An id the kind took beforehand (`nextId(family, 'job')`), when its own items are keyed by it (an import's rows). */
  id?: number;
  /** The kind's own items, written in the job's transaction (an import's record). */
  parts?: Part[];
}

/**
 * Writes the job, its running marker and its tasks (as outbox items, a run
 * of tasks to each) in one transaction: a job whose tasks were not queued
 * never exists. A job without tasks is complete at once. While one job of a
 * kind runs for a client, another is refused (`job-running`, with its id),
 * or, for a kind with a wait list, waits its turn.
 */
export async function startJob(deps: Deps, input: NewJob): Promise<JobRecord> {
  const kind = jobKind(input.kind);
  if (kind.family !== input.family) throw new Error(`Job kind "${kind.name}" belongs to ${kind.family}, not ${input.family}`);
  const perMessage = kind.tasksPerMessage ?? TASKS_PER_MESSAGE;
  const max = maxTasks(perMessage);
  if (input.tasks.length > max) throw new DomainError('limit-reached', `A job takes at most ${max} tasks`, { limit: max });
  for (const task of input.tasks) {
    const bytes = Buffer.byteLength(JSON.stringify(task) ?? '');
    if (bytes > MAX_TASK_BYTES) throw new Error(`A ${kind.name} task is ${bytes} bytes; at most ${MAX_TASK_BYTES} (queue a reference to larger data)`);
  }

  const id = input.id ?? (await nextId(deps, input.family, 'job'));
  const now = deps.clock().toISOString();
  const counts: JobCounts = { total: input.tasks.length, completed: 0, errored: 0, skipped: 0 };
  const empty = input.tasks.length === 0;
  const job: JobRecord = {
    clientId: input.clientId,
    family: input.family,
    id,
    kind: kind.name,
    status: empty ? closingStatus(counts) : 'queued',
    counts,
    failures: [],
    requestedBy: input.requestedBy ?? null,
    createdAt: now,
    ...(empty ? { finishedAt: now } : {}),
  };
  const marker = jobKeys.running(job.clientId, job.family, kind.name);
  const parts = [part('job', putItem(deps, toItem(job, now), itemAbsent)), ...(input.parts ?? [])];
  if (empty) {
    await transact(deps, [...parts, part('marker', checkItem(deps, marker, itemAbsent)), ...(await closedParts(deps, kind, job))], { marker: runningRefusal });
    return job;
  }
  const messages = chunksOf([...input.tasks], perMessage).map((tasks, n): JobMessage => ({
    id: `job_${randomUUID().replaceAll('-', '')}`,
    kind: kind.name,
    family: job.family,
    client_id: job.clientId,
    job_id: id,
    first: n * perMessage,
    tasks,
  }));
  const running = [
    part('marker', putItem(deps, { ...marker, entity: 'job-running', job_id: id, created_at: now }, itemAbsent)),
    ...messages.map((m, n) => part(`tasks-${n}`, outboxPut(deps, taskOutboxKind(kind), m.id, m))),
  ];
  if (!kind.waitList) {
    await transact(deps, [...parts, ...running], { marker: runningRefusal });
    return job;
  }
  // Start now, or wait behind the running one; if that one ends between the two tries, try again.
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await transact(deps, [...parts, ...running]);
      return job;
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('marker'))) throw err;
    }
    if ((await joinWaitList(deps, job, parts, messages, kind.waitList)) === 'joined') return job;
  }
  throw new Error(`Job ${id}: the running ${kind.name} job kept ending and starting`);
}

/** The job as it is now (read consistently), or undefined when this client has no such job. */
export async function readJob(deps: Deps, ref: JobRef): Promise<JobRecord | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: jobKeys.job(ref.clientId, ref.family, ref.id), ConsistentRead: true }));
  return Item ? fromJobItem(Item as JobItem) : undefined;
}

export function jobView(deps: Deps, job: JobRecord): JobView {
  const at = (instant: string | undefined) => (instant ? formatWithOffset(instant, deps.config.serviceTimeZone) : null);
  return {
    id: job.id,
    status: job.status,
    counts: job.counts,
    failures: job.failures,
    requested_by: job.requestedBy,
    created_at: at(job.createdAt)!,
    started_at: at(job.startedAt),
    finished_at: at(job.finishedAt),
  };
}

/**
 * What a poll shows: the kind's view of the client's job. Another client's
 * job, or (when `kind` is given) a job of another kind, is not found.
 */
export async function getJob(deps: Deps, clientId: string, family: FamilyId, id: number, options: { kind?: string } = {}): Promise<unknown> {
  const job = await readJob(deps, { clientId, family, id });
  if (!job || (options.kind !== undefined && job.kind !== options.kind)) throw new DomainError('not-found', `No job ${id}`);
  const base = jobView(deps, job);
  const kind = jobKind(job.kind);
  return kind.view ? kind.view(base, job) : base;
}
