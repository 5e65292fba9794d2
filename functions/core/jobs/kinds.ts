import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { Part } from '../platform/transact.js';
import type { JobRecord, JobView } from './jobs.js';
import type { TaskOutcome } from './rules.js';

/**
 * What a kind of job is: its name, its family, how one task runs and how a
 * poll shows the job. The engine owns the rest (the job item, counts, the
 * queue, closing). A kind registers itself when its module loads; the jobs
 * worker imports the modules of every kind it runs.
 */

/** What one task came to. `errored` keeps its detail among the job's first failures. */
export interface TaskResult {
  outcome: TaskOutcome;
  detail?: string;
}

export interface JobKind<Task = unknown> {
  /** Unique across families; also in the job item and each queue message. */
  name: string;
  family: FamilyId;
  /**
   * Runs one task. Expected refusals are results (`errored`, `skipped`); a
   * throw is unexpected: SQS retries the task, and on the last attempt it is
   * counted as errored. A task may run more than once: it must be idempotent.
   */
  run(deps: Deps, task: Task, context: { job: JobRecord; index: number }): Promise<TaskResult>;
  /** The job as a poll shows it; the engine's view unless the kind reshapes it. */
  view?(base: JobView, job: JobRecord): unknown;
  /** Tasks per queue message (default 25). */
  tasksPerMessage?: number;
  /**
   * Parts written in the transaction that closes the job (its completion
   * event, say); not named "job" or "marker". Read again if that transaction
   * is retried. A job of no tasks closes as it starts, before the parts its
   * start writes exist.
   */
  closed?(deps: Deps, job: JobRecord): Part[] | Promise<Part[]>;
}

const KINDS = new Map<string, JobKind>();

export function registerJobKind<Task>(kind: JobKind<Task>): JobKind<Task> {
  if (!/^[a-z0-9-]+$/.test(kind.name)) throw new Error(`Job kind "${kind.name}": lower-case letters, digits and hyphens only (it is part of a key)`);
  const known = KINDS.get(kind.name);
  if (known && known !== kind) throw new Error(`Job kind "${kind.name}" is registered twice`);
  KINDS.set(kind.name, kind as JobKind);
  return kind;
}

export function jobKind(name: string): JobKind {
  const kind = KINDS.get(name);
  if (!kind) throw new Error(`Unknown job kind "${name}"`);
  return kind;
}
