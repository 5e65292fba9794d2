/**
 * The pure rules of jobs: no table, no SDK (lib/queues.ts reads the queue
 * settings from here, and CDK synth must not load the SDK).
 */

export type JobStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';
export type TaskOutcome = 'completed' | 'errored' | 'skipped';

export interface JobCounts {
  total: number;
  completed: number;
  errored: number;
  skipped: number;
}

export interface JobFailure {
  /** The task as it was queued. */
  task: unknown;
  detail: string;
}

/** A job keeps the first 100 failures; the counts keep the rest. */
export const MAX_FAILURES = 100;
/** A failure's detail is cut to this many characters, so 100 of them fit in one item. */
export const MAX_FAILURE_DETAIL = 500;
/** A task's JSON is at most this many bytes: 25 tasks per message and 98 messages stay inside one transaction. */
export const MAX_TASK_BYTES = 1024;
/** Tasks per queue message unless the kind says otherwise. */
export const TASKS_PER_MESSAGE = 25;
/** A transaction holds 100 parts; the job item and the running marker take two, the task messages the rest. */
export const MAX_MESSAGES_PER_JOB = 98;
/**
 * Receives of a jobs message before it moves to the dead-letter queue. On the
 * last one, a task that throws is counted as errored instead of failing the
 * message, so the job still closes.
 */
export const JOB_ATTEMPTS = 5;

export const OPEN_STATUSES: readonly JobStatus[] = ['queued', 'running'];

export const countedSoFar = (c: JobCounts): number => c.completed + c.errored + c.skipped;

/** Every task is counted: the job can close. */
export const allCounted = (c: JobCounts): boolean => countedSoFar(c) >= c.total;

/** The status a job closes with once every task is counted. */
export const closingStatus = (c: JobCounts): JobStatus => (c.errored > 0 ? 'completed_with_errors' : 'completed');

/** The most tasks one job takes when its kind queues `tasksPerMessage` to a message. */
export const maxTasks = (tasksPerMessage: number): number => tasksPerMessage * MAX_MESSAGES_PER_JOB;

/** A failure as the job keeps it: the detail bounded, never empty. */
export function failureEntry(task: unknown, detail: string): JobFailure {
  const text = detail.trim() || 'The task failed';
  return { task, detail: text.length > MAX_FAILURE_DETAIL ? `${text.slice(0, MAX_FAILURE_DETAIL - 1)}…` : text };
}

/** What an unexpected error becomes once the last attempt has failed: nothing internal is shown to the client. */
export const exhaustedDetail = (attempts: number): string => `The task failed unexpectedly ${attempts} times`;

/** Is this the last receive before the dead-letter queue? */
export const lastAttempt = (receiveCount: number): boolean => receiveCount >= JOB_ATTEMPTS;
