import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JobMessage } from '../../../functions/core/jobs/jobs.js';
import { JOB_ATTEMPTS } from '../../../functions/core/jobs/rules.js';
import { jobsConsumer } from '../../../functions/core/jobs/tasks.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { getImport, importKeys, startImport } from '../../../functions/core/registration-monitoring/imports.js';
// Its tasks' runner, as the jobs worker loads it.
import '../../../functions/core/registration-monitoring/imports-tasks.js';
import { outboxItems } from '../../support/kit.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testDeps } from '../../support/env.js';

/** An import's chunks delivered twice at once and once more: each row committed, each chunk counted once. */

let deps: Deps;
const { newClient, newWorker, itemsOf } = monitoringFixtures(() => deps);
beforeAll(async () => {
  deps = await testDeps();
});

it('a redelivered chunk counts nothing twice, and the import closes once with its counts', async () => {
  const clientId = await newClient();
  const rows = Array.from({ length: 501 }, (_, k) => `Ada,Row${k},gmc,${String(5_000_000 + k)},R-${k}`);
  const file = Buffer.from(['first_name,last_name,register,registration_number,external_ref', ...rows, 'Bad,Row,gmc,12,R-bad'].join('\n'));
  const started = await startImport(deps, clientId, { bytes: file, name: 'big.csv', mode: 'upsert', dryRun: false, uploadedBy: null });
  expect(started).toMatchObject({ status: 'queued', counts: { rows_total: 502, failed: 1 } });
  const messages = (await outboxItems(deps)).filter(
    (i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).job_id === started.id && (JSON.parse(i.payload) as JobMessage).client_id === clientId,
  );
  expect(messages).toHaveLength(3); // two chunks (500 rows and 1), and the upload's failures
  const consume = jobsConsumer(deps);
  const deliver = (receiveCount: number) =>
    consume(messages.map((m, n) => ({ id: `m${n}-${receiveCount}`, body: m.payload, receiveCount, receiptHandle: `r${n}` })));
  await Promise.all([deliver(1), deliver(2)]);
  await deliver(3);
  const done = await getImport(deps, clientId, started.id);
  expect(done).toMatchObject({ status: 'completed_with_errors', counts: { rows_total: 502, created: 501, updated: 0, unchanged: 0, failed: 1 } });
  expect(done.errors?.data).toEqual([
    {
      row: 503,
      column: 'registration_number',
      value: '12',
      code: 'validation',
      detail: 'Not a GMC reference number: 7 digits (for example 1234567)',
      pointer: '/registration/number',
    },
  ]);
  expect(await itemsOf(clientId, 'WORKER#registration-monitoring#')).toHaveLength(501);
  const closed = (await outboxItems(deps)).filter(
    (i) => i.kind === 'event' && JSON.parse(i.payload).type === 'import.completed' && JSON.parse(i.payload).client_id === clientId,
  );
  expect(closed).toHaveLength(1);
  expect(JSON.parse(closed[0]!.payload).data).toMatchObject({
    id: started.id,
    status: 'completed_with_errors',
    counts: { rows_total: 502, created: 501, updated: 0, unchanged: 0, failed: 1 },
  });
}, 120_000);

const importEvents = async (clientId: string) =>
  (await outboxItems(deps))
    .filter((i) => i.kind === 'event' && JSON.parse(i.payload).type.startsWith('import.') && JSON.parse(i.payload).client_id === clientId)
    .map((i) => JSON.parse(i.payload));

it('a chunk that fails past its last attempt fails the import: status failed, one import.failed with the counts', async () => {
  const clientId = await newClient();
  const file = Buffer.from(['first_name,last_name,register,registration_number', 'Ada,Lost,gmc,5100001', 'Ada,Lost,gmc,5100002'].join('\n'));
  const started = await startImport(deps, clientId, { bytes: file, name: 'lost.csv', mode: 'upsert', dryRun: false, uploadedBy: null });
  const [message] = (await outboxItems(deps)).filter(
    (i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).job_id === started.id && (JSON.parse(i.payload) as JobMessage).client_id === clientId,
  );
  // The chunk's rows are gone (a fault no retry mends): the last attempt gives up on them.
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: importKeys.chunk(clientId, started.id, 0) }));
  await jobsConsumer(deps)([{ id: 'm-last', body: message!.payload, receiveCount: JOB_ATTEMPTS, receiptHandle: 'r' }]);
  expect(await getImport(deps, clientId, started.id)).toMatchObject({ status: 'failed', counts: { rows_total: 2, created: 0, failed: 0 } });
  expect(await itemsOf(clientId, 'WORKER#registration-monitoring#')).toHaveLength(0);
  expect((await importEvents(clientId)).map((e) => [e.type, e.data.status, e.data.counts.rows_total])).toEqual([['import.failed', 'failed', 2]]);
});

it('a file with a header and no rows is finished at once, with one import.completed', async () => {
  const clientId = await newClient();
  const started = await startImport(deps, clientId, {
    bytes: Buffer.from('first_name,last_name,register,registration_number\n'),
    name: 'empty.csv',
    mode: 'upsert',
    dryRun: false,
    uploadedBy: null,
  });
  expect(started).toMatchObject({ status: 'completed', counts: { rows_total: 0, created: 0 } });
  expect(started.finished_at).not.toBeNull();
  expect((await importEvents(clientId)).map((e) => [e.type, e.data.status])).toEqual([['import.completed', 'completed']]);
});

it('new rows are written many to a transaction, each worker with its guards, due item and worker.created; an update goes on its own', async () => {
  const clientId = await newClient();
  const existing = await newWorker(clientId, 'gmc', '5200000');
  const rows = Array.from({ length: 60 }, (_, k) => `Ada,Batch${k},gmc,${String(5_200_001 + k)}`);
  const file = Buffer.from(['first_name,last_name,register,registration_number', 'Grace,Renamed,gmc,5200000', ...rows].join('\n'));
  const started = await startImport(deps, clientId, { bytes: file, name: 'batch.csv', mode: 'upsert', dryRun: false, uploadedBy: null });
  const [message] = (await outboxItems(deps)).filter(
    (i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).job_id === started.id && (JSON.parse(i.payload) as JobMessage).client_id === clientId,
  );
  // The consumer's own client counts the transactions it sends.
  const transactions: number[] = [];
  const base = new DynamoDBClient({});
  base.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') transactions.push((args.input as { TransactItems: unknown[] }).TransactItems.length);
      return next(args);
    },
    { step: 'initialize', name: 'countTransactions' },
  );
  const counting = { ...deps, db: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }) };
  await jobsConsumer(counting)([{ id: 'm-batch', body: message!.payload, receiveCount: 1, receiptHandle: 'r' }]);
  expect(await getImport(deps, clientId, started.id)).toMatchObject({
    status: 'completed',
    counts: { rows_total: 61, created: 60, updated: 1, unchanged: 0, failed: 0 },
  });
  const workers = await itemsOf(clientId, 'WORKER#registration-monitoring#');
  expect(workers).toHaveLength(61);
  expect(new Set(workers.map((w) => w.id)).size).toBe(61);
  expect(workers.find((w) => w.id === existing.id)).toMatchObject({ last_name: 'Renamed' });
  const created = (await outboxItems(deps)).filter(
    (i) => i.kind === 'event' && JSON.parse(i.payload).type === 'worker.created' && JSON.parse(i.payload).client_id === clientId,
  );
  expect(created).toHaveLength(61); // the fixture's worker, and the sixty
  // Sixty new workers in a few transactions of up to 100 parts, not sixty; the update and the chunk's count on their own.
  expect(transactions.every((n) => n <= 100)).toBe(true);
  expect(transactions.length).toBeLessThanOrEqual(8);
});

it('one import runs and up to five wait (even when uploaded at once); a sixth waiting is import-queue-full; each waiting one starts when the one before ends', async () => {
  const clientId = await newClient();
  const file = (n: number) =>
    Buffer.from(['first_name,last_name,register,registration_number,external_ref', `Ada,Queue${n},gmc,${5_200_000 + n},Q-${n}`].join('\n'));
  const upload = (n: number) => startImport(deps, clientId, { bytes: file(n), name: `q${n}.csv`, mode: 'upsert', dryRun: false, uploadedBy: null });
  const jobMessages = async () =>
    (await outboxItems(deps))
      .filter((i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).client_id === clientId)
      .map((i) => ({ sk: i.sk, payload: i.payload, job: (JSON.parse(i.payload) as JobMessage).job_id }));
  const first = await upload(0);
  const at = await Promise.allSettled(Array.from({ length: 7 }, (_, k) => upload(k + 1)));
  const waiting = at.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  expect(waiting).toHaveLength(5);
  expect(at.filter((r) => r.status === 'rejected').map((r) => r.reason)).toEqual([
    expect.objectContaining({ code: 'import-queue-full', extensions: { queued: 5 } }),
    expect.objectContaining({ code: 'import-queue-full', extensions: { queued: 5 } }),
  ]);
  for (const w of waiting) expect(await getImport(deps, clientId, w.id)).toMatchObject({ status: 'queued' });
  // Only the running import's work is queued.
  expect(new Set((await jobMessages()).map((m) => m.job))).toEqual(new Set([first.id]));

  // Each import, as it ends, starts the oldest waiting one; meanwhile there is room for one more.
  const delivered = new Set<string>();
  const order: number[] = [];
  for (let round = 0; round < 10; round++) {
    const fresh = (await jobMessages()).filter((m) => !delivered.has(m.sk));
    if (fresh.length === 0) break;
    expect(new Set(fresh.map((m) => m.job)).size).toBe(1); // one import at a time
    order.push(fresh[0]!.job);
    for (const m of fresh) delivered.add(m.sk);
    await jobsConsumer(deps)(fresh.map((m, n) => ({ id: `q${round}-${n}`, body: m.payload, receiveCount: 1, receiptHandle: 'r' })));
    if (round === 0) await expect(upload(9)).resolves.toMatchObject({ status: 'queued' });
  }
  const ids = [first.id, ...waiting.map((w) => w.id).sort((a, b) => a - b)];
  expect(order.slice(0, 6)).toEqual(ids);
  expect(order).toHaveLength(7);
  for (const id of order) expect(await getImport(deps, clientId, id)).toMatchObject({ status: 'completed', counts: { created: 1 } });
  expect(await itemsOf(clientId, 'WORKER#registration-monitoring#')).toHaveLength(7);
  // All done: the next import starts at once.
  await upload(10);
  expect((await jobMessages()).filter((m) => !delivered.has(m.sk))).toHaveLength(1);
}, 120_000);

it('a chunk that crashed after some of its transactions is run again, even as a first receive: each row creates its worker once, under its reserved id, and is counted once', async () => {
  const clientId = await newClient();
  const rows = Array.from({ length: 60 }, (_, k) => `Ada,Crash${k},gmc,${String(5_300_001 + k)},C-${k}`);
  const started = await startImport(deps, clientId, {
    bytes: Buffer.from(['first_name,last_name,register,registration_number,external_ref', ...rows].join('\n')),
    name: 'crash.csv',
    mode: 'upsert',
    dryRun: false,
    uploadedBy: null,
  });
  const [message] = (await outboxItems(deps)).filter(
    (i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).job_id === started.id && (JSON.parse(i.payload) as JobMessage).client_id === clientId,
  );
  // The first run's second transaction never reaches the table (the process dies there); the others may.
  let sent = 0;
  const base = new DynamoDBClient({});
  base.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && ++sent === 2) throw new Error('crashed');
      return next(args);
    },
    { step: 'initialize', name: 'crashOnSecondTransaction' },
  );
  const crashing = { ...deps, db: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }) };
  expect([...(await jobsConsumer(crashing)([{ id: 'm-crash', body: message!.payload, receiveCount: 1, receiptHandle: 'r' }]))]).toEqual(['m-crash']);
  const before = await itemsOf(clientId, 'WORKER#registration-monitoring#');
  expect(before.length).toBeGreaterThan(0);
  expect(before.length).toBeLessThan(60);

  // SQS may hand the message out again as a first receive: the run must find the committed rows itself.
  await jobsConsumer(deps)([{ id: 'm-again', body: message!.payload, receiveCount: 1, receiptHandle: 'r2' }]);
  expect(await getImport(deps, clientId, started.id)).toMatchObject({
    status: 'completed',
    counts: { rows_total: 60, created: 60, updated: 0, unchanged: 0, failed: 0 },
  });
  const workers = await itemsOf(clientId, 'WORKER#registration-monitoring#');
  const { first_worker_id: first } = (await itemsOf(clientId, 'IMPORT_CHUNK#registration-monitoring#'))[0]! as { first_worker_id: number };
  expect(workers.map((w) => [w.id, w.external_ref]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(
    Array.from({ length: 60 }, (_, k) => [first + k, `C-${k}`]),
  );
  const created = (await outboxItems(deps)).filter(
    (i) => i.kind === 'event' && JSON.parse(i.payload).type === 'worker.created' && JSON.parse(i.payload).client_id === clientId,
  );
  expect(created).toHaveLength(60);
});
