import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { clientKeys } from '../access/clients.js';
import { eventPut } from '../events/outbox.js';
import { readJob, startJob } from '../jobs/jobs.js';
import { registerJobKind, type TaskResult } from '../jobs/kinds.js';
import { getMany, mapConcurrently, queryFilteredPage, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, nextIds, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Part } from '../platform/transact.js';
import { readImportFile, type ImportRow, type RowError } from './import-rows.js';
import { previewRows, upsertRow, type Mode, type RowOutcome } from './import-upsert.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { newWorker } from './workers.js';

/**
 * CSV imports (design section 9) on the jobs engine: the file is read and
 * every row checked at upload; valid rows are kept in chunks of at most 500
 * under the import, one job task each. A task commits its rows one by one,
 * then counts them with the chunk's marker, put only if absent, so a
 * redelivered chunk is never counted twice. A dry run stops after the checks.
 */

export const IMPORT_KIND = 'monitoring-import';
const CHUNK_ROWS = 500;
/** A chunk item stays well under DynamoDB's 400 KB. */
const CHUNK_BYTES = 300_000;
/** Rows committed on their own, in flight at once: each is a few round trips. */
const ROWS_AT_ONCE = 8;
/** A transaction's most parts (DynamoDB's limit): about sixteen new workers with their rows' records. */
const MAX_PARTS = 100;
const GROUPS_AT_ONCE = 4;
const ERRORS_PER_PAGE = 100;

export type ImportStatus = 'queued' | 'validating' | 'processing' | 'completed' | 'completed_with_errors' | 'validated' | 'failed';
type Counts = { rows_total: number; created: number; updated: number; unchanged: number; failed: number };

interface ImportItem extends Counts {
  id: number;
  client_id: string;
  status: ImportStatus;
  mode: Mode;
  dry_run: boolean;
  file: { name: string | null; size_bytes: number; sha256: string };
  warnings: string[];
  uploaded_by: number | null;
  created_at: string;
  finished_at: string | null;
}

const CLIENT = TABLE_KEYS.client;
const sk = (prefix: string, ...parts: (string | number)[]) => key(prefix, FAMILY, ...parts);
export const importKeys = {
  record: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importRecord, padId(id)) }),
  chunk: (clientId: string, id: number, n: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importChunk, padId(id), padId(n)) }),
  error: (clientId: string, id: number, row: number, n: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importError, padId(id), padId(row), n) }),
  chunkDone: (clientId: string, id: number, n: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importChunkDone, padId(id), padId(n)) }),
  row: (clientId: string, id: number, line: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importRow, padId(id), padId(line)) }),
};

/** Rows in chunks of at most 500 and about 300 KB. */
function chunked(rows: ImportRow[]): ImportRow[][] {
  const chunks: ImportRow[][] = [];
  let current: ImportRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(JSON.stringify(row));
    if (current.length && (current.length >= CHUNK_ROWS || bytes + size > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

const errorPuts = (clientId: string, id: number, errors: RowError[]) =>
  errors.map((e, n) => ({ put: { ...importKeys.error(clientId, id, e.row, n), entity: 'import-error', ...e } }));

const view = (deps: Deps, i: ImportItem, errors?: { data: unknown[]; next_cursor: string | null }) => ({
  id: i.id,
  status: i.status,
  mode: i.mode,
  dry_run: i.dry_run,
  file: i.file,
  counts: { rows_total: i.rows_total, created: i.created, updated: i.updated, unchanged: i.unchanged, failed: i.failed },
  warnings: i.warnings,
  ...(errors ? { errors } : {}),
  uploaded_by: i.uploaded_by,
  created_at: formatWithOffset(i.created_at, deps.config.serviceTimeZone),
  finished_at: i.finished_at ? formatWithOffset(i.finished_at, deps.config.serviceTimeZone) : null,
});

export interface Upload {
  bytes: Buffer;
  name: string | null;
  mode: Mode;
  dryRun: boolean;
  uploadedBy: number | null;
}

/** POST /imports: checks every row now; a dry run ends `validated`, an import is queued as a job (one running per client). */
export async function startImport(deps: Deps, clientId: string, upload: Upload) {
  const file = readImportFile(upload.bytes);
  const now = deps.clock().toISOString();
  const id = await nextId(deps, FAMILY, 'job');
  const base: ImportItem = {
    id,
    client_id: clientId,
    status: upload.dryRun ? 'validated' : 'queued',
    mode: upload.mode,
    dry_run: upload.dryRun,
    file: { name: upload.name, size_bytes: upload.bytes.length, sha256: createHash('sha256').update(upload.bytes).digest('hex') },
    warnings: file.warnings,
    uploaded_by: upload.uploadedBy,
    created_at: now,
    finished_at: upload.dryRun ? now : null,
    rows_total: file.rowsTotal,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
  };
  const errors = [...file.errors];
  if (upload.dryRun) {
    // What committing would do, existing workers included; nothing is written but the report.
    for (const outcome of await previewRows(deps, clientId, file.rows, upload.mode)) count(base, outcome, errors);
  }
  base.failed += new Set(file.errors.map((e) => e.row)).size;
  await writeMany(deps, errorPuts(clientId, id, errors));
  const record = { ...importKeys.record(clientId, id), entity: 'import', ...base };
  // A dry run, or a file with a header and no rows, has nothing to commit: it is finished now.
  if (upload.dryRun || (file.rows.length === 0 && base.failed === 0)) {
    const finished = upload.dryRun ? base : { ...base, status: 'completed' as const, finished_at: now };
    await transact(deps, [part('import', putItem(deps, { ...record, ...finished }, itemAbsent)), importEvent(deps, finished)]);
    return view(deps, finished);
  }
  const chunks = chunked(file.rows);
  await writeMany(deps, chunks.map((rows, n) => ({ put: { ...importKeys.chunk(clientId, id, n), entity: 'import-chunk', rows } })));
  // A file whose rows all failed still closes its job: the one task that reports them.
  const tasks: ImportTask[] = chunks.map((_, n) => ({ chunk: n }));
  if (base.failed > 0) tasks.push({ chunk: -1 });
  await startJob(deps, { family: FAMILY, kind: IMPORT_KIND, clientId, id, requestedBy: upload.uploadedBy === null ? null : String(upload.uploadedBy), tasks, parts: [part('import', putItem(deps, record, itemAbsent))] });
  return view(deps, base);
}

function count(c: Counts, outcome: RowOutcome, errors: RowError[]) {
  if (outcome.result === 'failed') {
    c.failed++;
    errors.push(outcome.error);
  } else c[outcome.result]++;
}

const importEvent = (deps: Deps, i: ImportItem) => part('event', eventPut(deps, { type: 'import.completed', family: FAMILY, client_id: i.client_id, data: view(deps, i) }));

type ImportTask = { chunk: number };

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

registerJobKind<ImportTask>({
  name: IMPORT_KIND,
  family: FAMILY,
  tasksPerMessage: 1,
  run: (deps, task, { job }) => runChunk(deps, job.clientId, job.id, task),
  // The record holds every chunk's counts by now (a chunk adds them before its task is counted). Rows
  // never committed mean a chunk failed past its retries: the import failed, whatever the rest did.
  closed: async (deps, job) => {
    const record = await requireImport(deps, job.clientId, job.id);
    const committed = record.created + record.updated + record.unchanged + record.failed;
    const status: ImportStatus = committed < record.rows_total ? 'failed' : (job.status as ImportStatus);
    const closed: ImportItem = { ...record, status, finished_at: job.finishedAt ?? null };
    return [
      part('import', updateItem(deps, importKeys.record(job.clientId, job.id), { set: { status, finished_at: closed.finished_at } })),
      part('event', eventPut(deps, { type: status === 'failed' ? 'import.failed' : 'import.completed', family: FAMILY, client_id: job.clientId, data: view(deps, closed) })),
    ];
  },
});

async function requireImport(deps: Deps, clientId: string, id: number): Promise<ImportItem> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: importKeys.record(clientId, id), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', `No import ${id}`);
  return Item as ImportItem;
}

/** GET /imports/{id}: the import, and a page of its row errors in file order. */
export async function getImport(deps: Deps, clientId: string, id: number, errorsCursor?: string) {
  const item = await requireImport(deps, clientId, id);
  if (!item.dry_run && item.status === 'queued') {
    const job = await readJob(deps, { clientId, family: FAMILY, id });
    if (job?.status === 'running') item.status = 'processing';
  }
  const errors = await queryFilteredPage(
    deps,
    { pk: clientKeys.partition(clientId), prefix: key(familyPrefix(CLIENT.sk.importError, FAMILY), padId(id), ''), limit: ERRORS_PER_PAGE, cursor: errorsCursor, order: 'oldest' },
    ({ row, column, value, code, detail, pointer }) => ({ row, column, value, code, detail, pointer }),
  );
  return view(deps, item, errors);
}

/** GET /imports: newest first. */
export const listImports = (deps: Deps, clientId: string, page: { limit: number; cursor?: string }) =>
  queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: familyPrefix(CLIENT.sk.importRecord, FAMILY), ...page }, (i) => view(deps, i as unknown as ImportItem));

