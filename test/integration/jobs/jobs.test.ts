import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { relayOutbox } from '../../../functions/core/events/relay.js';
import { getJob, startJob, type JobMessage, type JobRecord, type JobView } from '../../../functions/core/jobs/jobs.js';
import { registerJobKind, registerTaskRunner } from '../../../functions/core/jobs/kinds.js';
import { JOB_ATTEMPTS, MAX_FAILURE_DETAIL, MAX_FAILURES } from '../../../functions/core/jobs/rules.js';
import { jobsConsumer } from '../../../functions/core/jobs/tasks.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import type { FamilyId } from '../../../functions/core/platform/families.js';
import { createSqsClient, type QueueMessage } from '../../../functions/core/platform/sqs.js';
import { part, updateItem } from '../../../functions/core/platform/transact.js';
import { sqsBatchHandler } from '../../../functions/consumers/_batch.js';
import { startPoller } from '../../../lib/local/pollers.js';
import { ensureQueues } from '../../../lib/local/provision.js';
import { outboxItems, refusalCode } from '../../support/kit.js';
import { testClock, testDeps, uniqueName, type TestClock } from '../../support/env.js';
import { eventually } from '../../support/eventually.js';

const FAMILY: FamilyId = 'clinical-interview';

/** A task says what it comes to; `throws` fails unexpectedly until its `until`-th run (always, without one). */
interface TestTask {
  n: number;
  result?: 'errored' | 'skipped' | 'throws';
  detail?: string;
  /** A detail longer than a failure keeps. */
  long?: boolean;
  until?: number;
}

/** Runs per task (`<job>:<n>`), so a test sees which tasks ran again. */
const runs = new Map<string, number>();
const runsOf = (job: JobRecord, n: number) => runs.get(`${job.id}:${n}`) ?? 0;

const closesKey = (job: JobRecord) => ({ pk: `TEST_CLOSES#${job.family}`, sk: String(job.id) });

async function run(_deps: Deps, task: TestTask, { job }: { job: JobRecord }) {
  const seen = (runs.get(`${job.id}:${task.n}`) ?? 0) + 1;
  runs.set(`${job.id}:${task.n}`, seen);
  if (task.result === 'throws' && (task.until === undefined || seen < task.until)) throw new Error(`task ${task.n} broke`);
  if (task.result === 'errored' || task.result === 'skipped')
    return { outcome: task.result, detail: task.long ? 'x'.repeat(2000) : (task.detail ?? `task ${task.n} refused`) };
  return { outcome: 'completed' as const };
}
const behaviour = {
  family: FAMILY,
  // Counts the closes, so a job closed twice shows 2.
  closed: (deps: Deps, job: JobRecord) => [part('closes', updateItem(deps, closesKey(job), { add: { closes: 1 }, set: { status: job.status } }))],
};
for (const kind of [
  { name: 'test-tasks', ...behaviour },
  // One task to a message, so every task of a job can race to be last.
  { name: 'test-single', tasksPerMessage: 1, ...behaviour },
  { name: 'test-shaped', ...behaviour, view: (base: JobView) => ({ job: base.id, state: base.status }) },
]) {
  registerTaskRunner(registerJobKind<TestTask>(kind), run);
}

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  deps = await testDeps({ clock });
});
beforeEach(() => clock.set('2026-11-21T10:00:00.000Z'));

const newClient = () => `cl_${randomUUID().slice(0, 8)}`;
const tasks = (count: number, extra: (n: number) => Partial<TestTask> = () => ({})): TestTask[] =>
  Array.from({ length: count }, (_, n) => ({ n, ...extra(n) }));
const start = (clientId: string, taskList: TestTask[], kind = 'test-tasks') =>
  startJob(deps, { family: FAMILY, kind, clientId, requestedBy: 'user_7', tasks: taskList });
const poll = (job: JobRecord) => getJob(deps, job.clientId, job.family, job.id) as Promise<JobView>;

/** The queue messages a job's start wrote to the outbox, as SQS would deliver them. */
async function messagesOf(job: JobRecord, receiveCount = 1): Promise<QueueMessage[]> {
  const payloads = (await outboxItems(deps)).filter((i) => i.kind === 'job').map((i) => i.payload);
  return (
    payloads
      .filter((p) => (JSON.parse(p) as JobMessage).job_id === job.id && (JSON.parse(p) as JobMessage).client_id === job.clientId)
      .map((body) => ({ id: (JSON.parse(body) as JobMessage).id, body, receiveCount, receiptHandle: 'not-a-real-handle' }))
      // The outbox is sharded, so its order is not the tasks' order: first task first.
      .sort((a, b) => JSON.parse(a.body).first - JSON.parse(b.body).first)
  );
}

const deliver = (messages: QueueMessage[]) => jobsConsumer(deps)(messages);
const closes = async (job: JobRecord) =>
  (await deps.db.send(new GetCommand({ TableName: deps.table, Key: closesKey(job), ConsistentRead: true }))).Item?.closes ?? 0;

describe('a job', () => {
  it('is queued with its counts, runs its tasks from the queue, and completes with every task counted', async () => {
    const job = await start(newClient(), tasks(60));
    expect(await poll(job)).toEqual({
      id: job.id,
      status: 'queued',
      counts: { total: 60, completed: 0, errored: 0, skipped: 0 },
      failures: [],
      requested_by: 'user_7',
      created_at: '2026-11-21T10:00:00+00:00',
      started_at: null,
      finished_at: null,
    });
    const messages = await messagesOf(job);
    expect(messages.map((m) => JSON.parse(m.body).first).sort((a, b) => a - b)).toEqual([0, 25, 50]);

    clock.advance(60);
    expect(await deliver(messages.slice(0, 1))).toEqual(new Set());
    expect(await poll(job)).toMatchObject({
      status: 'running',
      counts: { total: 60, completed: 25 },
      started_at: '2026-11-21T10:01:00+00:00',
      finished_at: null,
    });

    clock.advance(60);
    expect(await deliver(messages.slice(1))).toEqual(new Set());
    expect(await poll(job)).toMatchObject({
      status: 'completed',
      counts: { total: 60, completed: 60, errored: 0, skipped: 0 },
      failures: [],
      started_at: '2026-11-21T10:01:00+00:00',
      finished_at: '2026-11-21T10:02:00+00:00',
    });
    expect(await closes(job)).toBe(1);
    expect(tasks(60).every((t) => runsOf(job, t.n) === 1)).toBe(true);
  });

  it('completes with errors when some tasks error, keeping their failures; skipped tasks are counted apart', async () => {
    const job = await start(
      newClient(),
      tasks(30, (n) => (n % 10 === 3 ? { result: 'errored', detail: `worker ${n} is archived` } : n % 10 === 5 ? { result: 'skipped' } : {})),
    );
    expect(await deliver(await messagesOf(job))).toEqual(new Set());
    const view = await poll(job);
    expect(view).toMatchObject({ status: 'completed_with_errors', counts: { total: 30, completed: 24, errored: 3, skipped: 3 } });
    expect(view.failures.sort((a, b) => (a.task as TestTask).n - (b.task as TestTask).n)).toEqual(
      [3, 13, 23].map((n) => ({ task: { n, result: 'errored', detail: `worker ${n} is archived` }, detail: `worker ${n} is archived` })),
    );
  });

  it('keeps the first 100 failures, with bounded details, and counts every error', async () => {
    const job = await start(
      newClient(),
      tasks(105, () => ({ result: 'errored', long: true })),
    );
    expect(await deliver(await messagesOf(job))).toEqual(new Set());
    const view = await poll(job);
    expect(view).toMatchObject({ status: 'completed_with_errors', counts: { total: 105, completed: 0, errored: 105, skipped: 0 } });
    expect(view.failures).toHaveLength(MAX_FAILURES);
    expect(view.failures.every((f) => f.detail.length === MAX_FAILURE_DETAIL)).toBe(true);
  });

  it('with no tasks is complete at once', async () => {
    const job = await start(newClient(), []);
    expect(await poll(job)).toMatchObject({ status: 'completed', counts: { total: 0 }, finished_at: '2026-11-21T10:00:00+00:00' });
    expect(await messagesOf(job)).toEqual([]);
    expect(await closes(job)).toBe(1);
  });

  it("shows the kind's view when the kind has one", async () => {
    const job = await start(newClient(), tasks(1), 'test-shaped');
    expect(await getJob(deps, job.clientId, FAMILY, job.id)).toEqual({ job: job.id, state: 'queued' });
  });

  it('refuses more tasks than its messages can carry in one transaction', async () => {
    expect(await refusalCode(start(newClient(), tasks(99), 'test-single'))).toBe('limit-reached');
  });
});

describe('redelivery', () => {
  it('counts a redelivered task once, and does not run a counted task again', async () => {
    const job = await start(newClient(), tasks(5));
    const messages = await messagesOf(job);
    await deliver(messages);
    await deliver(messages);
    expect(await poll(job)).toMatchObject({ status: 'completed', counts: { total: 5, completed: 5 } });
    expect(tasks(5).map((t) => runsOf(job, t.n))).toEqual([1, 1, 1, 1, 1]);
  });

  it('counts each task once when the same message is delivered three times at once', async () => {
    const job = await start(
      newClient(),
      tasks(20, (n) => (n % 4 === 0 ? { result: 'errored' } : {})),
    );
    const messages = await messagesOf(job);
    await Promise.all([deliver(messages), deliver(messages), deliver(messages)]);
    const view = await poll(job);
    expect(view).toMatchObject({ status: 'completed_with_errors', counts: { total: 20, completed: 15, errored: 5, skipped: 0 } });
    expect(view.failures).toHaveLength(5);
    expect(await closes(job)).toBe(1);
  });

  it('retries a task that throws (its siblings are counted) and runs only that task again', async () => {
    const job = await start(
      newClient(),
      tasks(4, (n) => (n === 2 ? { result: 'throws', until: 2 } : {})),
    );
    const [message] = await messagesOf(job);
    expect(await deliver([message!])).toEqual(new Set([message!.id]));
    expect(await poll(job)).toMatchObject({ status: 'running', counts: { completed: 3 } });

    expect(await deliver([{ ...message!, receiveCount: 2 }])).toEqual(new Set());
    expect(await poll(job)).toMatchObject({ status: 'completed', counts: { total: 4, completed: 4, errored: 0 } });
    expect(tasks(4).map((t) => runsOf(job, t.n))).toEqual([1, 1, 2, 1]);
  });

  it(`counts a task that still throws on the last of ${JOB_ATTEMPTS} receives as errored, so the job closes`, async () => {
    const job = await start(
      newClient(),
      tasks(3, (n) => (n === 1 ? { result: 'throws' } : {})),
    );
    const [message] = await messagesOf(job);
    for (let receive = 1; receive < JOB_ATTEMPTS; receive++) {
      expect(await deliver([{ ...message!, receiveCount: receive }])).toEqual(new Set([message!.id]));
    }
    expect(await deliver([{ ...message!, receiveCount: JOB_ATTEMPTS }])).toEqual(new Set());
    expect(await poll(job)).toMatchObject({
      status: 'completed_with_errors',
      counts: { total: 3, completed: 2, errored: 1 },
      failures: [{ task: { n: 1, result: 'throws' }, detail: `The task failed unexpectedly ${JOB_ATTEMPTS} times` }],
    });
    expect(runsOf(job, 1)).toBe(JOB_ATTEMPTS);
  });
});

describe('closing', () => {
  it('closes exactly once when the last tasks finish at the same time', async () => {
    const clientId = newClient();
    for (let round = 0; round < 4; round++) {
      const job = await start(
        clientId,
        tasks(12, (n) => (n === 7 && round % 2 ? { result: 'errored' } : {})),
        'test-single',
      );
      const messages = await messagesOf(job);
      expect(messages).toHaveLength(12);
      await Promise.all(messages.map((m) => deliver([m])));
      const view = await poll(job);
      expect(view.status).toBe(round % 2 ? 'completed_with_errors' : 'completed');
      expect(view.counts).toEqual({ total: 12, completed: round % 2 ? 11 : 12, errored: round % 2 ? 1 : 0, skipped: 0 });
      expect(await closes(job)).toBe(1);
    }
  });
});

describe('one running job per client and kind', () => {
  it('refuses a second start while one runs, naming it, and allows it once the first has closed', async () => {
    const clientId = newClient();
    const first = await start(clientId, tasks(2));
    const refused = await start(clientId, tasks(2)).catch((e) => e);
    expect(refused).toMatchObject({ code: 'job-running', extensions: { job_id: first.id } });
    // A job with no tasks is refused too: it would say "completed" while another runs.
    expect(await refusalCode(start(clientId, []))).toBe('job-running');
    // Other kinds and other clients are not held up.
    expect(await refusalCode(start(clientId, tasks(1), 'test-single'))).toBe('ok');
    expect(await refusalCode(start(newClient(), tasks(1)))).toBe('ok');

    await deliver(await messagesOf(first));
    expect(await poll(first)).toMatchObject({ status: 'completed' });
    const second = await start(clientId, tasks(2));
    expect(second.id).toBeGreaterThan(first.id);
    expect(await poll(second)).toMatchObject({ status: 'queued' });
  });
});

describe('reading a job', () => {
  it("finds another client's job, another family's id or another kind's job not found", async () => {
    const job = await start(newClient(), tasks(1), 'test-shaped');
    expect(await refusalCode(getJob(deps, newClient(), FAMILY, job.id))).toBe('not-found');
    expect(await refusalCode(getJob(deps, job.clientId, 'portal-v2', job.id))).toBe('not-found');
    expect(await refusalCode(getJob(deps, job.clientId, FAMILY, job.id, { kind: 'test-tasks' }))).toBe('not-found');
    expect(await refusalCode(getJob(deps, job.clientId, FAMILY, job.id + 1000))).toBe('not-found');
    expect(await refusalCode(getJob(deps, job.clientId, FAMILY, job.id, { kind: 'test-shaped' }))).toBe('ok');
  });
});

describe('through the local SQS server', () => {
  let sqs: SQSClient;
  beforeAll(() => {
    sqs = createSqsClient();
  });

  it('relays the tasks from the outbox to the jobs queue, redelivers a throwing task and counts it errored on its last receive, leaving the DLQ empty', async () => {
    // A short visibility timeout, so the redeliveries come quickly; the receive count is the real one.
    const queues = await ensureQueues(sqs, uniqueName('jobs'), { jobs: { visibilityTimeoutSeconds: 1 } });
    const jobs = queues.find((q) => q.id === 'jobs')!;
    const job = await start(
      newClient(),
      tasks(30, (n) => (n === 4 ? { result: 'throws' } : {})),
    );
    const items = (await outboxItems(deps)).filter(
      (i) => i.kind === 'job' && JSON.parse(i.payload).job_id === job.id && JSON.parse(i.payload).client_id === job.clientId,
    );
    const missing = `${jobs.url}-missing`;
    expect(
      (
        await relayOutbox(items, {
          sqs,
          queueUrls: { job: jobs.url, 'subject-job': missing, event: missing, email: missing, check: missing, delivery: missing, refund: missing },
        })
      ).notQueued,
    ).toEqual([]);

    const poller = startPoller({ sqs, queueUrl: jobs.url, queueArn: jobs.arn, batchSize: 1, worker: sqsBatchHandler(jobsConsumer(deps)), waitSeconds: 1 });
    try {
      // One read per try: two reads could see `queued` and then `running`, and pass an open job.
      await eventually(async () => !['queued', 'running'].includes((await poll(job)).status), { timeoutMs: 90_000, what: 'the job to close' });
    } finally {
      await poller.stop();
    }
    expect(await poll(job)).toMatchObject({
      status: 'completed_with_errors',
      counts: { total: 30, completed: 29, errored: 1, skipped: 0 },
      failures: [{ task: { n: 4 }, detail: `The task failed unexpectedly ${JOB_ATTEMPTS} times` }],
    });
    expect(runsOf(job, 4)).toBe(JOB_ATTEMPTS);
    expect(
      tasks(30)
        .filter((t) => t.n !== 4)
        .every((t) => runsOf(job, t.n) === 1),
    ).toBe(true);
    const dlq = await sqs.send(new ReceiveMessageCommand({ QueueUrl: jobs.dlqUrl, WaitTimeSeconds: 1 }));
    expect(dlq.Messages ?? []).toEqual([]);
  });
});
