import { registerTaskRunner, type TaskResult } from '../jobs/kinds.js';
import { getMany, mapConcurrently, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { nextIds } from '../platform/ids.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import type { ImportRow, RowError } from './import-rows.js';
import { previewRows, upsertRow, type Mode, type RowOutcome } from './import-upsert.js';
import { count, errorPuts, importKeys, importKind, type Counts, type ImportChunk, type ImportItem, type ImportTask } from './imports.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { newWorker, workerKeys } from './workers.js';

/**
 * An import's task (imports.ts): one chunk of rows committed, then counted
 * once. Loaded by the jobs worker only, so the API's import functions carry
 * none of the committing.
 */

/** Rows committed on their own, in flight at once: each is a few round trips. */
const ROWS_AT_ONCE = 8;
/** A transaction's most parts (DynamoDB's limit): twenty new workers, each with its guards, due item and event. */
const MAX_PARTS = 100;
const GROUPS_AT_ONCE = 4;

/** A chunk's row and where its outcome is kept: its record, or the worker reserved for it (none in a chunk of an earlier version). */
interface Slot {
  row: ImportRow;
  record: { pk: string; sk: string };
  own?: number;
}

const slotsOf = (clientId: string, id: number, chunk: ImportChunk): Slot[] =>
  chunk.rows.map((row, n) => ({
    row,
    record: importKeys.row(clientId, id, row.line),
    own: chunk.first_worker_id === undefined ? undefined : chunk.first_worker_id + n,
  }));

/** What earlier (or racing) runs of the chunk committed: a row's recorded outcome, or `created` when its reserved worker exists. */
async function committed(deps: Deps, clientId: string, slots: Slot[]): Promise<Map<Slot, RowOutcome>> {
  const ownKey = (s: Slot) => (s.own === undefined ? undefined : workerKeys.worker(clientId, s.own));
  const found = new Map(
    (
      await getMany(
        deps,
        slots.flatMap((s) => [s.record, ...(s.own === undefined ? [] : [ownKey(s)!])]),
      )
    ).map((i) => [String(i.sk), i]),
  );
  const outcomes = new Map<Slot, RowOutcome>();
  for (const s of slots) {
    const record = found.get(s.record.sk)?.outcome as RowOutcome | undefined;
    if (record) outcomes.set(s, record);
    else if (s.own !== undefined && found.has(ownKey(s)!.sk)) outcomes.set(s, { result: 'created' });
  }
  return outcomes;
}

const recordPart = (deps: Deps, s: Slot, outcome: RowOutcome) => part('row', putItem(deps, { ...s.record, entity: 'import-row', outcome }, itemAbsent));

/** A row's outcome: the one committed by an earlier (or racing) delivery, else this one's, recorded with its write. */
async function commitRow(deps: Deps, clientId: string, id: number, s: Slot, mode: Mode): Promise<RowOutcome> {
  const read = async () => (await committed(deps, clientId, [s])).get(s);
  const earlier = await read();
  if (earlier) return earlier;
  const outcome = await upsertRow(deps, clientId, s.row, mode, (o) => recordPart(deps, s, o), s.own);
  if (outcome !== 'raced') return outcome;
  const theirs = await read();
  if (!theirs) throw new Error(`Import ${id} row ${s.row.line} lost a race and nothing was recorded`);
  return theirs;
}

/**
 * A chunk's rows. Those an earlier delivery committed keep that outcome; the
 * rest are decided from batched reads (as a dry run decides), and new,
 * unchanged and refused rows are written many to a transaction: a new worker
 * under its reserved id (put only if absent: it records the row), any other
 * outcome as a record of its own. A group whose transaction fails (a racing
 * delivery or writer took something it needed) and every update go row by
 * row, where each row's own conditions decide. Rows name distinct workers: a
 * file's duplicates are refused at upload.
 */
async function commitRows(deps: Deps, clientId: string, id: number, chunk: ImportChunk, mode: Mode, receive: number): Promise<RowOutcome[]> {
  const slots = slotsOf(clientId, id, chunk);
  // The first receive skips the look (it seldom finds anything): a row an unseen earlier run did commit spoils its group's
  // transaction, whose conditions on the row's record and reserved worker catch it, and is read row by row.
  const outcomes = receive > 1 ? await committed(deps, clientId, slots) : new Map<Slot, RowOutcome>();
  const open = slots.filter((s) => !outcomes.has(s));
  const decided = await previewRows(
    deps,
    clientId,
    open.map((s) => s.row),
    mode,
    open.map((s) => s.own),
  );
  // A chunk written before ids were reserved takes its new workers' ids now, and records their rows apart.
  const unreserved = open.filter((s, i) => s.own === undefined && decided[i]!.result === 'created' && !decided[i]!.written);
  const taken = new Map((await nextIds(deps, FAMILY, 'worker', unreserved.length)).map((workerId, i) => [unreserved[i]!, workerId]));
  const alone: Slot[] = [];
  const groups: { slots: Slot[]; parts: Part[] }[] = [];
  open.forEach((s, i) => {
    const d = decided[i]!;
    // As a row on its own records it: the result, and a refusal's error (never the matched worker).
    const outcome: RowOutcome = d.result === 'failed' ? d : { result: d.result };
    if (d.written) return void outcomes.set(s, outcome);
    if (outcome.result === 'updated') return void alone.push(s);
    const worker = outcome.result === 'created' ? newWorker(deps, clientId, s.own ?? taken.get(s)!, s.row.input).parts : [];
    const record = outcome.result === 'created' && s.own !== undefined ? [] : [recordPart(deps, s, outcome)];
    const parts = [...worker, ...record].map((p) => ({ ...p, name: `${s.row.line}:${p.name}` }));
    const group = groups.at(-1);
    if (!group || group.parts.length + parts.length > MAX_PARTS) groups.push({ slots: [s], parts });
    else {
      group.slots.push(s);
      group.parts.push(...parts);
    }
    outcomes.set(s, outcome);
  });
  await mapConcurrently(groups, GROUPS_AT_ONCE, async (group) => {
    try {
      await transact(deps, group.parts);
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      alone.push(...group.slots);
    }
  });
  await mapConcurrently(alone, ROWS_AT_ONCE, async (s) => outcomes.set(s, await commitRow(deps, clientId, id, s, mode)));
  return slots.map((s) => outcomes.get(s)!);
}

/** One chunk: each row committed on its own, then the chunk counted once (its marker put if absent). */
async function runChunk(deps: Deps, clientId: string, id: number, task: ImportTask, receive: number): Promise<TaskResult> {
  if (task.chunk < 0) return { outcome: 'errored', detail: 'Rows failed their checks at upload' };
  const done = importKeys.chunkDone(clientId, id, task.chunk);
  const keys = { done, chunk: importKeys.chunk(clientId, id, task.chunk), item: importKeys.record(clientId, id) };
  const found = await getMany(deps, Object.values(keys));
  const at = (k: { sk: string }) => found.find((i) => i.sk === k.sk);
  if (at(keys.done)) return { outcome: 'completed' };
  const chunk = at(keys.chunk) as unknown as ImportChunk | undefined;
  const item = at(keys.item) as unknown as ImportItem | undefined;
  if (!chunk || !item) throw new Error(`Import ${id} chunk ${task.chunk} of ${clientId} is missing`);
  const counts: Counts = { rows_total: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };
  const errors: RowError[] = [];
  for (const outcome of await commitRows(deps, clientId, id, chunk, item.mode, receive)) count(counts, outcome, errors);
  await writeMany(deps, errorPuts(clientId, id, errors));
  try {
    await transact(deps, [
      part('done', putItem(deps, { ...done, entity: 'import-chunk-done', ...counts }, itemAbsent)),
      part(
        'import',
        updateItem(deps, importKeys.record(clientId, id), {
          set: { status: 'processing' },
          add: { created: counts.created, updated: counts.updated, unchanged: counts.unchanged, failed: counts.failed },
        }),
      ),
    ]);
  } catch (err) {
    // A redelivery that ran the rows again: they were counted by the first.
    if (!(err instanceof TransactionFailed && err.has('done'))) throw err;
  }
  return counts.failed > 0 ? { outcome: 'errored', detail: `${counts.failed} rows of chunk ${task.chunk} failed` } : { outcome: 'completed' };
}

registerTaskRunner(importKind, (deps, task, { job, receive }) => runChunk(deps, job.clientId, job.id, task, receive));
