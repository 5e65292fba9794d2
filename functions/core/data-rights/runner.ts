import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { bookingUnchanged } from '../bookings/change.js';
import { deleteDocument } from '../documents/delete.js';
import { eventPut } from '../events/outbox.js';
import { registerTaskRunner, type TaskResult } from '../jobs/kinds.js';
import type { JobRecord } from '../jobs/jobs.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { allOf, part, transact, TransactionFailed, updateItem, type Condition } from '../platform/transact.js';
import type { DataSubjectAdapter, StoredItem } from './adapter.js';
import { DATA_SUBJECT_FAMILIES, type DataSubjectFamily } from './families.js';
import { activeAmong, findErasable, findLinkedItems, findSubjectItems } from './find.js';
import { dataSubjectKeys, exportItem, MAX_EXPORT_BYTES, type AuditRecord, type Counts } from './records.js';
import { subjectJobKind, type SubjectTask } from './requests.js';
import { mentions } from './subject.js';
import { eraseTraces } from './traces.js';

/**
 * How data subject jobs run (loaded by the jobs worker only). Each job has
 * one task: read the person's items a page at a time, then write the export
 * document, or erase each item in place. A task may run twice: an erasure
 * run again finds nothing left to erase, and the audit record is closed once.
 */

const auditQueued: Condition = { expression: '#status = :queued', names: { '#status': 'status' }, values: { ':queued': 'queued' } };

/** Closes the audit record with what the request came to, with the parts that go with it (the erasure's event). */
async function closeAudit(deps: Deps, job: JobRecord, changes: Partial<AuditRecord>, parts = [] as ReturnType<typeof part>[]): Promise<void> {
  const set = { ...changes, finished_at: deps.clock().toISOString() };
  try {
    await transact(deps, [part('audit', updateItem(deps, dataSubjectKeys.audit(job.clientId, job.family, job.id), { set }, auditQueued)), ...parts]);
  } catch (err) {
    // Closed by an earlier delivery of the same task: nothing more to record.
    if (!(err instanceof TransactionFailed && err.has('audit'))) throw err;
  }
}

async function runExport(deps: Deps, adapter: DataSubjectAdapter, task: SubjectTask, job: JobRecord): Promise<TaskResult> {
  const found = await findSubjectItems(deps, adapter, job.clientId, task.subject_hash);
  const items = [...found, ...(await findLinkedItems(deps, adapter, job.clientId, found))];
  const sections: Record<string, unknown[]> = {};
  for (const item of items) {
    const section = adapter.section(item);
    if (section) (sections[section] ??= []).push(adapter.view(deps, item));
  }
  const files = items.flatMap((i) => adapter.files(i)).map(({ what, download }) => ({ what, download }));
  const document = { family: adapter.family, generated_at: deps.clock().toISOString(), ...sections, files };
  const item = exportItem(deps, { clientId: job.clientId, family: job.family, jobId: job.id, subjectHash: task.subject_hash, document });
  if (item === 'too-large') {
    await closeAudit(deps, job, { status: 'refused', counts: { records: items.length } });
    return { outcome: 'errored', detail: `The export is larger than one stored document holds (${MAX_EXPORT_BYTES} bytes compressed)` };
  }
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: item }));
  const counts: Counts = Object.fromEntries(Object.entries(sections).map(([name, list]) => [name, list.length]));
  await closeAudit(deps, job, { status: 'completed', counts: { ...counts, files: files.length } });
  return { outcome: 'completed' };
}

/** Replaces the person's fields of one item, conditional on the version read; read again when something changed it meanwhile. */
async function eraseItem(deps: Deps, adapter: DataSubjectAdapter, first: StoredItem, due: (item: StoredItem) => boolean): Promise<void> {
  let item: StoredItem | undefined = first;
  for (let attempt = 0; item && due(item); attempt += 1) {
    const fields = adapter.erasedFields(item, deps.clock());
    const version = (typeof item.version === 'number' ? item.version : 0) + 1;
    const when = allOf({ expression: 'attribute_exists(pk)' }, bookingUnchanged(item as never));
    const names = Object.fromEntries(Object.keys({ ...fields, version }).map((k, i) => [`#f${i}`, k]));
    const values = Object.fromEntries(Object.values({ ...fields, version }).map((v, i) => [`:f${i}`, v]));
    try {
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `SET ${Object.keys(names)
            .map((n, i) => `${n} = :f${i}`)
            .join(', ')}`,
          ConditionExpression: when.expression,
          ExpressionAttributeNames: { ...names, ...when.names },
          ExpressionAttributeValues: { ...values, ...when.values },
        }),
      );
      return;
    } catch (err) {
      if (!isConditionalCheckFailed(err) || attempt >= 10) throw err;
      item = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }))).Item as
        StoredItem | undefined;
    }
  }
}

async function runErasure(deps: Deps, adapter: DataSubjectAdapter, task: SubjectTask, job: JobRecord): Promise<TaskResult> {
  const hash = task.subject_hash;
  const { found, linked, items } = await findErasable(deps, adapter, job.clientId, hash);
  const now = deps.clock();
  // A booking made between the request and its job: the agency decides first, as at the request.
  const active = activeAmong(adapter, items, now);
  if (active.length > 0) {
    await closeAudit(deps, job, { status: 'refused', active });
    return { outcome: 'errored', detail: `subject-has-active-bookings: ${active.map((a) => `${a.type} ${a.id}`).join(', ')}` };
  }
  const files = items.flatMap((i) => adapter.files(i));
  for (const file of files) await deleteDocument(file.key);
  for (const item of items) {
    await adapter.beforeErase?.(deps, item);
    await eraseItem(deps, adapter, item, (i) => mentions(i, hash) || (found.includes(item) ? false : !i.erased_at));
  }
  const traces = await eraseTraces(deps, job.clientId, job.family, hash);
  const counts: Counts = { records: items.length, files: files.length, ...traces };
  const kept = adapter.kept(adapter.linked?.erase ? items : [...items, ...linked], now, deps);
  const event = eventPut(deps, {
    type: 'data_subject.erased',
    family: adapter.family,
    client_id: job.clientId,
    data: { id: job.id, email_sha256: hash, counts, kept, erased_at: now.toISOString() },
  });
  await closeAudit(deps, job, { status: 'completed', counts, kept }, [part('event', event)]);
  return { outcome: 'completed' };
}

/** Registers each family's export and erasure runner; the jobs consumer passes the families' adapters (registries/data-subject-adapters.ts). */
export function registerSubjectRunners(adapters: Readonly<Record<DataSubjectFamily, DataSubjectAdapter>>): void {
  for (const family of DATA_SUBJECT_FAMILIES) {
    const adapter = adapters[family];
    registerTaskRunner(subjectJobKind('export', family), (deps, task, { job }) => runExport(deps, adapter, task, job));
    registerTaskRunner(subjectJobKind('erasure', family), (deps, task, { job }) => runErasure(deps, adapter, task, job));
  }
}
