import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { Part } from '../platform/transact.js';
import type { JobRecord, JobView } from './jobs.js';
import type { TaskOutcome } from './rules.js';

/**
 * What a kind of job is: its name, its family, how a poll shows the job and
 * what closing it writes. The engine owns the rest (the job item, counts,
 * the queue, closing). How a task runs is registered apart
 * (`registerTaskRunner`), by a module only the jobs worker loads: starting
 * or reading a job then carries none of the work its tasks do (a batch
 * verification's register checks, an import's row commits). A kind and its
 * runner each register themselves when their module loads; the jobs worker
 * imports every kind's runner module.
 */

/** What one task came to. `errored` keeps its detail among the job's first failures. */
export interface TaskResult {
  outcome: TaskOutcome;
  detail?: string;
}

// `_Task` ties a kind to its runner's tasks (registerTaskRunner); a kind itself never reads them.
export interface JobKind<_Task = unknown> {
  /** Unique across families; also in the job item and each queue message. */
  name: string;
  family: FamilyId;
  /** The job as a poll shows it; the engine's view unless the kind reshapes it. */
  view?(base: JobView, job: JobRecord): unknown;
  /**
   * While one job of the kind runs for a client, up to `max` more wait their
   * turn (wait-list.ts) and a further one is refused with `full`; without
   * it, a second job is refused at once (`job-running`).
   */
  waitList?: { max: number; full: (max: number) => Error };
  /** Tasks per queue message (default 25). */
  tasksPerMessage?: number;
  /**
   * The outbox kind, so the queue and consumer, its tasks go through: `job`
   * (the jobs queue) unless the kind's work should neither wait behind nor
   * load another's (`subject-job`: data subject exports and erasures).
   */
  outboxKind?: 'job' | 'subject-job';
  /**
   * Parts written in the transaction that closes the job (its completion
   * event, say); not named "job" or "marker". Read again if that transaction
   * is retried. A job of no tasks closes as it starts, before the parts its
   * start writes exist.
   */
  closed?(deps: Deps, job: JobRecord): Part[] | Promise<Part[]>;
}

/**
 * Runs one task. Expected refusals are results (`errored`, `skipped`); a
 * throw is unexpected: SQS retries the task, and on the last attempt it is
 * counted as errored. A task may run more than once: it must be idempotent.
 */
export type TaskRunner<Task> = (deps: Deps, task: Task, context: TaskContext) => Promise<TaskResult>;

export interface TaskContext {
  job: JobRecord;
  index: number;
  /**
   * The receive of the task's message: 1 the first time. A task may skip
   * looking for an earlier run's work on 1, never more: SQS may deliver a
   * message twice as its first receive, so what the task writes must still
   * find out for itself.
   */
  receive: number;
}

const KINDS = new Map<string, JobKind>();
const RUNNERS = new Map<string, TaskRunner<unknown>>();

export function registerJobKind<Task>(kind: JobKind<Task>): JobKind<Task> {
  if (!/^[a-z0-9-]+$/.test(kind.name)) throw new Error(`Job kind "${kind.name}": lower-case letters, digits and hyphens only (it is part of a key)`);
  const known = KINDS.get(kind.name);
  if (known && known !== kind) throw new Error(`Job kind "${kind.name}" is registered twice`);
  KINDS.set(kind.name, kind);
  return kind;
}

/** How the kind's tasks run; once per kind. */
export function registerTaskRunner<Task>(kind: JobKind<Task>, run: TaskRunner<Task>): void {
  if (KINDS.get(kind.name) !== kind) throw new Error(`Job kind "${kind.name}" is not registered`);
  const known = RUNNERS.get(kind.name);
  if (known && known !== run) throw new Error(`Job kind "${kind.name}" has a task runner already`);
  RUNNERS.set(kind.name, run as TaskRunner<unknown>);
}

/** The outbox kind a job kind's task messages are written as. */
export const taskOutboxKind = (kind: JobKind): NonNullable<JobKind['outboxKind']> => kind.outboxKind ?? 'job';

export function jobKind(name: string): JobKind {
  const kind = KINDS.get(name);
  if (!kind) throw new Error(`Unknown job kind "${name}"`);
  return kind;
}

export function taskRunner(name: string): TaskRunner<unknown> {
  const run = RUNNERS.get(name);
  if (!run) throw new Error(`No task runner for job kind "${name}" (is its module imported by the jobs worker?)`);
  return run;
}
