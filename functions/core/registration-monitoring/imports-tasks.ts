import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { registerTaskRunner, type TaskResult } from '../jobs/kinds.js';
import { getMany, mapConcurrently, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { nextIds } from '../platform/ids.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import type { ImportRow, RowError } from './import-rows.js';
import { previewRows, upsertRow, type Mode, type RowOutcome } from './import-upsert.js';
import { count, errorPuts, importKeys, importKind, type Counts, type ImportItem, type ImportTask } from './imports.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { newWorker } from './workers.js';

/**
 * An import's task (imports.ts): one chunk of rows committed, then counted
 * once. Loaded by the jobs worker only, so the API's import functions carry
 * none of the committing.
 */

/** Rows committed on their own, in flight at once: each is a few round trips. */
const ROWS_AT_ONCE = 8;
/** A transaction's most parts (DynamoDB's limit): about sixteen new workers with their rows' records. */
const MAX_PARTS = 100;
const GROUPS_AT_ONCE = 4;

/** A row's outcome: the one recorded by an earlier (or racing) delivery, else this one's, recorded with its write. */
async function commitRow(deps: Deps, clientId: string, id: number, row: ImportRow, mode: Mode): Promise<RowOutcome> {
  const k = importKeys.row(clientId, id, row.line);
  const read = async () => (await deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true }))).Item?.outcome as RowOutcome | undefined;
  const earlier = await read();
  if (earlier) return earlier;
  const outcome = await upsertRow(deps, clientId, row, mode, (o) => part('row', putItem(deps, { ...k, entity: 'import-row', outcome: o }, itemAbsent)));
  if (outcome !== 'raced') return outcome;
  const theirs = await read();
  if (!theirs) throw new Error(`Import ${id} row ${row.line} lost a race and nothing was recorded`);
  return theirs;
}

/**
 * A chunk's rows. Those an earlier delivery recorded keep that outcome; the
 * rest are decided from batched reads (as a dry run decides), and new,
 * unchanged and refused rows are written many to a transaction, each with
 * its record. A group whose transaction fails (a racing delivery or writer
 * took something it needed) and every update go row by row, where each row's
 * own conditions decide. Rows name distinct workers: a file's duplicates are
 * refused at upload.
 */
async function commitRows(deps: Deps, clientId: string, id: number, rows: ImportRow[], mode: Mode): Promise<RowOutcome[]> {
  const keyOf = (row: ImportRow) => importKeys.row(clientId, id, row.line);
  const recorded = new Map((await getMany(deps, rows.map(keyOf))).map((m) => [String(m.sk), m.outcome as RowOutcome]));
  const open = rows.filter((row) => !recorded.has(keyOf(row).sk));
  const decided = await previewRows(deps, clientId, open, mode);
  const newRows = open.filter((_, i) => decided[i]!.result === 'created');
  const ids = new Map((await nextIds(deps, FAMILY, 'worker', newRows.length)).map((workerId, i) => [newRows[i]!, workerId]));
  const outcomes = new Map<ImportRow, RowOutcome>();
  const alone: ImportRow[] = [];
  const groups: { rows: ImportRow[]; parts: Part[] }[] = [];
  open.forEach((row, i) => {
    // As a row on its own records it: the result, and a refusal's error (never the matched worker).
    const outcome: RowOutcome = decided[i]!.result === 'failed' ? decided[i]! : { result: decided[i]!.result };
    if (outcome.result === 'updated') return void alone.push(row);
    const own = outcome.result === 'created' ? newWorker(deps, clientId, ids.get(row)!, row.input).parts : [];
    const parts = [...own, part('row', putItem(deps, { ...keyOf(row), entity: 'import-row', outcome }, itemAbsent))].map((p) => ({ ...p, name: `${row.line}:${p.name}` }));
    const group = groups.at(-1);
    if (!group || group.parts.length + parts.length > MAX_PARTS) groups.push({ rows: [row], parts });
    else group.rows.push(row), group.parts.push(...parts);
    outcomes.set(row, outcome);
  });
  await mapConcurrently(groups, GROUPS_AT_ONCE, async (group) => {
    try {
      await transact(deps, group.parts);
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      alone.push(...group.rows);
    }
  });
  await mapConcurrently(alone, ROWS_AT_ONCE, async (row) => outcomes.set(row, await commitRow(deps, clientId, id, row, mode)));
  return rows.map((row) => recorded.get(keyOf(row).sk) ?? outcomes.get(row)!);
}

/** One chunk: each row committed on its own, then the chunk counted once (its marker put if absent). */
async function runChunk(deps: Deps, clientId: string, id: number, task: ImportTask): Promise<TaskResult> {
  if (task.chunk < 0) return { outcome: 'errored', detail: 'Rows failed their checks at upload' };
  const done = importKeys.chunkDone(clientId, id, task.chunk);
  if ((await deps.db.send(new GetCommand({ TableName: deps.table, Key: done, ConsistentRead: true }))).Item) return { outcome: 'completed' };
  const [chunk] = await getMany(deps, [importKeys.chunk(clientId, id, task.chunk)]);
  const item = (await getMany(deps, [importKeys.record(clientId, id)]))[0] as unknown as ImportItem | undefined;
  if (!chunk || !item) throw new Error(`Import ${id} chunk ${task.chunk} of ${clientId} is missing`);
  const counts: Counts = { rows_total: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };
  const errors: RowError[] = [];
  for (const outcome of await commitRows(deps, clientId, id, chunk.rows as ImportRow[], item.mode)) count(counts, outcome, errors);
  await writeMany(deps, errorPuts(clientId, id, errors));
  try {
    await transact(deps, [
      part('done', putItem(deps, { ...done, entity: 'import-chunk-done', ...counts }, itemAbsent)),
      part('import', updateItem(deps, importKeys.record(clientId, id), { set: { status: 'processing' }, add: { created: counts.created, updated: counts.updated, unchanged: counts.unchanged, failed: counts.failed } })),
    ]);
  } catch (err) {
    // A redelivery that ran the rows again: they were counted by the first.
    if (!(err instanceof TransactionFailed && err.has('done'))) throw err;
  }
  return counts.failed > 0 ? { outcome: 'errored', detail: `${counts.failed} rows of chunk ${task.chunk} failed` } : { outcome: 'completed' };
}

registerTaskRunner(importKind, (deps, task, { job }) => runChunk(deps, job.clientId, job.id, task));
