import {
  allCounted,
  closingStatus,
  exhaustedDetail,
  failureEntry,
  lastAttempt,
  JOB_ATTEMPTS,
  MAX_FAILURE_DETAIL,
  maxTasks,
} from '../../functions/core/jobs/rules.js';

/** The pure rules of jobs: when a job may close, with which status, and what a kept failure looks like. */

const counts = (completed: number, errored: number, skipped: number, total = 10) => ({ total, completed, errored, skipped });

describe('closing a job', () => {
  it('may close only when completed, errored and skipped add up to the total', () => {
    expect(allCounted(counts(9, 0, 0))).toBe(false);
    expect(allCounted(counts(5, 2, 2))).toBe(false);
    expect(allCounted(counts(5, 3, 2))).toBe(true);
    expect(allCounted(counts(0, 0, 0, 0))).toBe(true);
  });

  it('completes with errors when any task errored; skipped tasks are not errors', () => {
    expect(closingStatus(counts(10, 0, 0))).toBe('completed');
    expect(closingStatus(counts(2, 0, 8))).toBe('completed');
    expect(closingStatus(counts(9, 1, 0))).toBe('completed_with_errors');
    expect(closingStatus(counts(0, 10, 0))).toBe('completed_with_errors');
  });
});

describe('a kept failure', () => {
  it('keeps a short detail as it is, trimmed', () => {
    expect(failureEntry({ worker_id: 4 }, '  worker archived ')).toEqual({ task: { worker_id: 4 }, detail: 'worker archived' });
  });

  it(`cuts a long detail to ${MAX_FAILURE_DETAIL} characters, ending with an ellipsis`, () => {
    const { detail } = failureEntry(1, 'y'.repeat(MAX_FAILURE_DETAIL + 1));
    expect(detail).toHaveLength(MAX_FAILURE_DETAIL);
    expect(detail.endsWith('…')).toBe(true);
    expect(failureEntry(1, 'y'.repeat(MAX_FAILURE_DETAIL)).detail).toBe('y'.repeat(MAX_FAILURE_DETAIL));
  });

  it('never has an empty detail', () => {
    expect(failureEntry(1, '   ').detail).toBe('The task failed');
  });

  it('says how often a task failed unexpectedly, and nothing of the error itself', () => {
    expect(exhaustedDetail(5)).toBe('The task failed unexpectedly 5 times');
  });
});

describe('attempts and sizes', () => {
  it(`treats receive ${JOB_ATTEMPTS} as the last before the dead-letter queue`, () => {
    expect(lastAttempt(JOB_ATTEMPTS - 1)).toBe(false);
    expect(lastAttempt(JOB_ATTEMPTS)).toBe(true);
  });

  it('takes as many tasks as 98 messages carry (the job and its marker take the other two parts)', () => {
    expect(maxTasks(25)).toBe(2450);
    expect(maxTasks(1)).toBe(98);
  });
});
