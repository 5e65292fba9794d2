import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { clientKeys } from '../access/clients.js';
import { eventPut } from '../events/outbox.js';
import { readJob, startJob } from '../jobs/jobs.js';
import { registerJobKind, type JobKind } from '../jobs/kinds.js';
import { queryFilteredPage, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, nextIds, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { itemAbsent, part, putItem, transact, updateItem } from '../platform/transact.js';
import { MAX_QUEUED_IMPORTS } from './import-limits.js';
import { readImportFile, type ImportRow, type RowError } from './import-rows.js';
import { previewRows, type Mode, type RowOutcome } from './import-upsert.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';

/**
 * CSV imports on the jobs engine: the file is read and
 * every row checked at upload; valid rows are kept in chunks of at most 500
 * under the import, one job task each, with a worker id reserved for every
 * row (one counter write), so a row that creates a worker does so under the
 * same id however often its chunk runs. A task (imports-tasks.ts, loaded by
 * the jobs worker) commits its rows, then counts them with the chunk's
 * marker, put only if absent, so a redelivered chunk is never counted twice.
 * A dry run stops after the checks.
 */

export const IMPORT_KIND = 'monitoring-import';
const CHUNK_ROWS = 500;
/** A chunk item stays well under DynamoDB's 400 KB. */
const CHUNK_BYTES = 300_000;
const ERRORS_PER_PAGE = 100;

export type ImportStatus = 'queued' | 'validating' | 'processing' | 'completed' | 'completed_with_errors' | 'validated' | 'failed';
export type Counts = { rows_total: number; created: number; updated: number; unchanged: number; failed: number };

export interface ImportItem extends Counts {
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
  error: (clientId: string, id: number, row: number, n: number) => ({
    pk: clientKeys.partition(clientId),
    sk: sk(CLIENT.sk.importError, padId(id), padId(row), n),
  }),
  chunkDone: (clientId: string, id: number, n: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importChunkDone, padId(id), padId(n)) }),
  row: (clientId: string, id: number, line: number) => ({ pk: clientKeys.partition(clientId), sk: sk(CLIENT.sk.importRow, padId(id), padId(line)) }),
};

/** A chunk's rows; the n-th of them creates, if it creates one, worker `first_worker_id + n`. */
export interface ImportChunk {
  rows: ImportRow[];
  /** Absent in a chunk written before ids were reserved at upload. */
  first_worker_id?: number;
}

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

export const errorPuts = (clientId: string, id: number, errors: RowError[]) =>
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

/** POST /imports: checks every row now; a dry run ends `validated`, an import is queued as a job (one running per client, up to five waiting). */
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
  // Ids that rows decided as updates or refusals leave unused are skipped, as a refused POST /workers skips its id.
  const workerIds = await nextIds(deps, FAMILY, 'worker', file.rows.length);
  let reserved = 0;
  const items = chunks.map((rows, n) => {
    const chunk: ImportChunk = { rows, first_worker_id: workerIds[reserved]! };
    reserved += rows.length;
    return { put: { ...importKeys.chunk(clientId, id, n), entity: 'import-chunk', ...chunk } };
  });
  await writeMany(deps, items);
  // A file whose rows all failed still closes its job: the one task that reports them.
  const tasks: ImportTask[] = chunks.map((_, n) => ({ chunk: n }));
  if (base.failed > 0) tasks.push({ chunk: -1 });
  await startJob(deps, {
    family: FAMILY,
    kind: IMPORT_KIND,
    clientId,
    id,
    requestedBy: upload.uploadedBy === null ? null : String(upload.uploadedBy),
    tasks,
    parts: [part('import', putItem(deps, record, itemAbsent))],
  });
  return view(deps, base);
}

export function count(c: Counts, outcome: RowOutcome, errors: RowError[]) {
  if (outcome.result === 'failed') {
    c.failed++;
    errors.push(outcome.error);
  } else c[outcome.result]++;
}

const importEvent = (deps: Deps, i: ImportItem) =>
  part('event', eventPut(deps, { type: 'import.completed', family: FAMILY, client_id: i.client_id, data: view(deps, i) }));

export type ImportTask = { chunk: number };

/** Its tasks are chunks of rows (imports-tasks.ts runs them, in the jobs worker). */
export const importKind: JobKind<ImportTask> = {
  name: IMPORT_KIND,
  family: FAMILY,
  tasksPerMessage: 1,
  // One runs per client; up to five more wait their turn.
  waitList: {
    max: MAX_QUEUED_IMPORTS,
    full: (max) =>
      new DomainError('import-queue-full', `${max} imports are already waiting behind the running one; upload this file when one has finished`, {
        queued: max,
      }),
  },
  // The record holds every chunk's counts by now (a chunk adds them before its task is counted). Rows
  // never committed mean a chunk failed past its retries: the import failed, whatever the rest did.
  closed: async (deps, job) => {
    const record = await requireImport(deps, job.clientId, job.id);
    const committed = record.created + record.updated + record.unchanged + record.failed;
    const status: ImportStatus = committed < record.rows_total ? 'failed' : (job.status as ImportStatus);
    const closed: ImportItem = { ...record, status, finished_at: job.finishedAt ?? null };
    return [
      part('import', updateItem(deps, importKeys.record(job.clientId, job.id), { set: { status, finished_at: closed.finished_at } })),
      part(
        'event',
        eventPut(deps, { type: status === 'failed' ? 'import.failed' : 'import.completed', family: FAMILY, client_id: job.clientId, data: view(deps, closed) }),
      ),
    ];
  },
};
registerJobKind(importKind);

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
    {
      pk: clientKeys.partition(clientId),
      prefix: key(familyPrefix(CLIENT.sk.importError, FAMILY), padId(id), ''),
      limit: ERRORS_PER_PAGE,
      cursor: errorsCursor,
      order: 'oldest',
    },
    ({ row, column, value, code, detail, pointer }) => ({ row, column, value, code, detail, pointer }),
  );
  return view(deps, item, errors);
}

/** GET /imports: newest first. */
export const listImports = (deps: Deps, clientId: string, page: { limit: number; cursor?: string }) =>
  queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: familyPrefix(CLIENT.sk.importRecord, FAMILY), ...page }, (i) =>
    view(deps, i as unknown as ImportItem),
  );
