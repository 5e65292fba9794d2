import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../../functions/core/access/clients.js';
import { enableMonitoring } from '../../functions/core/registration-monitoring/account.js';
import { chunksOf } from '../../functions/core/platform/db.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { counted } from './cost.js';
import { json, round } from './measure.js';

/**
 * Registration monitoring: the counted cost of one register check (the
 * simulated register, a clean entry), and a CSV import's rate against bare
 * batched writes of the very worker items it wrote.
 */
export async function monitoringMeasures(deps: Deps, base: string, client: { client_id: string; client_secret: string }, rows: number) {
  await enableMonitoring(deps, client.client_id, { name: 'Bench Owner', email: 'owner@bench.example' });
  const token = (await json(`${base}/auth/token`, { body: client })).access_token as string;

  // Clean NMC entries (magic 9001 in digits 4 to 7), each number its own worker; the import's numbers stay clear of the magic ones.
  const workers: number[] = [];
  for (let i = 0; i < 8; i++) {
    const created = await json(`${base}/workers`, { token, body: { first_name: 'Bench', last_name: `Worker ${i}`, registration: { register: 'nmc', number: `${10 + i}A9001B` } } });
    workers.push(created.id as number);
  }
  const check = await counted(workers.length, async () => {
    for (const id of workers) await json(`${base}/workers/${id}/verifications?fresh=true`, { token, method: 'POST' });
  });

  // An import of `rows` new workers, from the request until the job has finished.
  const csv = ['first_name,last_name,register,registration_number,external_ref', ...Array.from({ length: rows }, (_, i) => `Row,Number ${i},nmc,${20 + Math.floor(i / 8000)}A${1000 + (i % 8000)}C,BENCH-${i}`)].join('\n');
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

  // Bare: the same worker items, written again under other keys, 25 to a batch, 8 batches at a time.
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new QueryCommand({ TableName: deps.table, KeyConditionExpression: 'pk = :pk', FilterExpression: 'entity = :worker', ExpressionAttributeValues: { ':pk': clientKeys.partition(client.client_id), ':worker': 'worker' }, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const copies = items.map((item) => ({ ...item, pk: `BENCH_COPY#${String(item.pk)}`, gsi1pk: undefined, gsi1sk: undefined }));
  const bareStarted = Date.now();
  const batches = chunksOf(copies, 25);
  for (const group of chunksOf(batches, 8)) {
    await Promise.all(group.map((batch) => deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: batch.map((Item) => ({ PutRequest: { Item: JSON.parse(JSON.stringify(Item)) } })) } }))));
  }
  const bareSeconds = (Date.now() - bareStarted) / 1000;
  const importPerS = status.counts.created / importSeconds;
  const barePerS = copies.length / bareSeconds;
  return {
    monitoring_check: check,
    import: { rows, created: status.counts.created, failed: status.counts.failed, rows_per_s: round(importPerS), bare_batched_writes_per_s: round(barePerS), ratio_import_vs_bare_writes: round(importPerS / barePerS) },
  };
}
