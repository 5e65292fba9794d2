import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { OUTBOX_SHARDS, outboxKeys } from '../../functions/core/events/outbox.js';
import { enableMonitoring } from '../../functions/core/registration-monitoring/account.js';
import { readImportFile } from '../../functions/core/registration-monitoring/import-rows.js';
import { newWorker } from '../../functions/core/registration-monitoring/workers.js';
import { chunksOf } from '../../functions/core/platform/db.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { counted } from './cost.js';
import { json, round } from './measure.js';

/**
 * Registration monitoring: the counted cost of one register check (the
 * simulated register, a clean entry), and a CSV import's rate against the
 * floor any correct import must pay: the items each new worker requires,
 * committed atomically (its guards must refuse a duplicate in the same write
 * that creates it, and its event is committed with it), twenty workers to a
 * transaction as the import groups them, with no read, condition, count or
 * job around them. Bare batched writes of the same items are kept beside it
 * as a figure: DynamoDB Local writes an item in a transaction about three
 * times slower than in a batch, which no atomic design escapes.
 */
export async function monitoringMeasures(deps: Deps, base: string, client: { client_id: string; client_secret: string }, rows: number) {
  await enableMonitoring(deps, client.client_id, { name: 'Bench Owner', email: 'owner@bench.example' });
  const token = (await json(`${base}/auth/token`, { body: client })).access_token as string;

  // Clean NMC entries (magic 9001 in digits 4 to 7), each number its own worker; the import's numbers stay clear of the magic ones.
  const workers: number[] = [];
  for (let i = 0; i < 8; i++) {
    const created = await json(`${base}/workers`, {
      token,
      body: { first_name: 'Bench', last_name: `Worker ${i}`, registration: { register: 'nmc', number: `${10 + i}A9001B` } },
    });
    workers.push(created.id as number);
  }
  const check = await counted(workers.length, async () => {
    for (const id of workers) await json(`${base}/workers/${id}/verifications?fresh=true`, { token, method: 'POST' });
  });

  // An import of `rows` new workers, from the request until the job has finished.
  const csv = [
    'first_name,last_name,register,registration_number,external_ref',
    ...Array.from({ length: rows }, (_, i) => `Row,Number ${i},nmc,${20 + Math.floor(i / 8000)}A${1000 + (i % 8000)}C,BENCH-${i}`),
  ].join('\n');
  // What creating each of those workers must write (the worker, its registration and external_ref guards, its due
  // item and its worker.created event: newWorker's items, as POST /workers writes them), under partitions of their
  // own: atomically per worker, twenty workers (100 items) to a transaction, 8 at a time (the floor); and 25 to a
  // batch, 8 batches at a time, unconditional (bare). Each measured on the idle stack before the import and again
  // after it (once its events are relayed); the mean of the two times.
  const inputs = readImportFile(Buffer.from(csv)).rows.map((r) => r.input);
  const itemsOf = (copy: string) =>
    inputs.map((input, i) =>
      newWorker(deps, client.client_id, 1_000_000_000 + i, input).parts.map(
        (p) => JSON.parse(JSON.stringify({ ...p.item.Put!.Item!, pk: `${copy}#${String(p.item.Put!.Item!.pk)}` })) as Record<string, unknown>,
      ),
    );
  // Eight writes at a time, timed.
  const timed = async <T>(writes: T[], write: (unit: T) => Promise<unknown>) => {
    const writesStarted = Date.now();
    for (const group of chunksOf(writes, 8)) await Promise.all(group.map(write));
    return (Date.now() - writesStarted) / 1000;
  };
  const bare = (copy: string) =>
    timed(chunksOf(itemsOf(copy).flat(), 25), (batch) =>
      deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: batch.map((Item) => ({ PutRequest: { Item } })) } })),
    );
  const floor = (copy: string) =>
    timed(chunksOf(itemsOf(copy), 20), (twenty) =>
      deps.db.send(new TransactWriteCommand({ TransactItems: twenty.flat().map((Item) => ({ Put: { TableName: deps.table, Item } })) })),
    );
  await outboxDrained(deps);
  const bareBefore = await bare('BENCH_COPY_BEFORE');
  const floorBefore = await floor('BENCH_FLOOR_BEFORE');
  const started = Date.now();
  const response = await fetch(`${base}/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csv });
  const accepted = (await response.json()) as { id: number };
  if (response.status !== 202) throw new Error(`POST /imports: ${response.status} ${JSON.stringify(accepted)}`);
  let status: { finished_at: string | null; counts: { created: number; failed: number } };
  do {
    await new Promise((r) => setTimeout(r, 100));
    status = await json(`${base}/imports/${accepted.id}`, { token });
  } while (!status.finished_at && Date.now() - started < 600_000);
  const importSeconds = (Date.now() - started) / 1000;
  await outboxDrained(deps);
  const bareAfter = await bare('BENCH_COPY_AFTER');
  const floorAfter = await floor('BENCH_FLOOR_AFTER');
  const importPerS = status.counts.created / importSeconds;
  const barePerS = inputs.length / ((bareBefore + bareAfter) / 2);
  const floorPerS = inputs.length / ((floorBefore + floorAfter) / 2);
  return {
    monitoring_check: check,
    import: {
      rows,
      created: status.counts.created,
      failed: status.counts.failed,
      rows_per_s: round(importPerS),
      floor_atomic_writes_per_s: round(floorPerS),
      bare_batched_writes_per_s: round(barePerS),
      import_s: round(importSeconds),
      floor_s: [round(floorBefore), round(floorAfter)],
      bare_s: [round(bareBefore), round(bareAfter)],
      ratio_import_vs_bare_writes: round(importPerS / floorPerS),
      ratio_import_vs_batched_writes: round(importPerS / barePerS),
    },
  };
}

/** Waits (up to a minute) until the local relay has taken every outbox item. */
async function outboxDrained(deps: Deps) {
  const until = Date.now() + 60_000;
  const empty = async (shard: number) =>
    !(
      await deps.db.send(
        new QueryCommand({
          TableName: deps.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': outboxKeys.shard(shard) },
          Limit: 1,
          ConsistentRead: true,
        }),
      )
    ).Items?.length;
  while (Date.now() < until && !(await Promise.all(Array.from({ length: OUTBOX_SHARDS }, (_, n) => empty(n)))).every(Boolean))
    await new Promise((r) => setTimeout(r, 200));
}
