import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { eventPut } from '../events/outbox.js';
import { queryAll, queryFilteredPage, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { formatWithOffset } from '../platform/time.js';
import { failuresAmong, itemAbsent, part, putItem, transact, updateItem, type Condition, type Part } from '../platform/transact.js';
import { openAlertsOf, resolveParts } from './alerts.js';
import { dueParts } from './due.js';
import { nextCheckOnSettings } from './schedule.js';
import { MONITORING_FAMILY as FAMILY, type Register, type Registration } from './registers.js';
import { externalRefGuardKey, GUARD_FAILURES, guardParts, registrationGuardKey, sameRegistration } from './worker-guards.js';

export { DEFAULT_MONITORING } from './registers.js';

/**
 * Workers: people whose
 * registration the agency monitors. `(register, number)` and `external_ref`
 * are unique per client through guard items written in the worker's own
 * transactions (./worker-guards.ts); archiving keeps the worker readable and
 * frees its guards. Their monitoring settings: ./monitoring-settings.ts.
 */

export type Outcome = 'unverified' | 'clear' | 'review' | 'fail';
export type Frequency = 'daily' | 'weekly';

export interface MonitoringSettings {
  enabled: boolean;
  frequency: Frequency;
  /** A calendar day (service time zone); no scheduled check before it. */
  paused_until: string | null;
}

/** What a client writes: the `POST /workers` body after its schema. */
export interface WorkerInput {
  first_name: string;
  last_name: string;
  external_ref: string | null;
  email: string | null;
  phone: string | null;
  job_role: string | null;
  registration: Registration;
  monitoring: MonitoringSettings;
}

export interface WorkerItem extends WorkerInput {
  id: number;
  client_id: string;
  outcome: Outcome;
  registration_status: string | null;
  expires_on: string | null;
  open_alerts: number;
  next_check_at: string | null;
  last_checked_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  /** The last check, and the last that completed (what `changes` compare with, and what a reuse answers). */
  last_verification_id?: number;
  last_completed_verification_id?: number;
  last_completed_at?: string;
  /** Errors since the last completed check: three raise `verification.unavailable`. */
  consecutive_errors?: number;
  /** The evidence chain's head: the SHA-256 of the last record and its position. */
  evidence_head?: string;
  evidence_seq?: number;
}

const CLIENT = TABLE_KEYS.client;
export const workerKeys = {
  worker: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.worker, FAMILY, padId(id)) }),
  prefix: () => familyPrefix(CLIENT.sk.worker, FAMILY),
  registrationGuard: registrationGuardKey,
  externalRefGuard: externalRefGuardKey,
};

const at = (iso: string | null, tz: string) => (iso ? formatWithOffset(iso, tz) : null);

/** The writable fields as stored: what PUT replaces and the guards follow. */
const writableForm = (w: WorkerItem): WorkerInput => ({
  first_name: w.first_name,
  last_name: w.last_name,
  external_ref: w.external_ref,
  email: w.email,
  phone: w.phone,
  job_role: w.job_role,
  registration: w.registration,
  monitoring: w.monitoring,
});

export function toWorkerView(w: WorkerItem, timeZone: string) {
  const { monitoring, ...person } = writableForm(w);
  return {
    id: w.id,
    ...person,
    monitoring: { ...monitoring, next_check_at: at(w.next_check_at, timeZone), last_checked_at: at(w.last_checked_at, timeZone) },
    outcome: w.outcome,
    registration_status: w.registration_status,
    expires_on: w.expires_on,
    open_alerts: w.open_alerts,
    archived_at: at(w.archived_at, timeZone),
    created_at: formatWithOffset(w.created_at, timeZone),
    updated_at: formatWithOffset(w.updated_at, timeZone),
  };
}
export type WorkerView = ReturnType<typeof toWorkerView>;

const viewOf = (deps: Deps, w: WorkerItem) => toWorkerView(w, deps.config.serviceTimeZone);

/** The writable fields as the client wrote them (an HCPC profession is derived, so left out): what PATCH merges onto. */
export const clientForm = (w: WorkerItem) => ({ ...writableForm(w), registration: { register: w.registration.register, number: w.registration.number } });
export type ClientForm = ReturnType<typeof clientForm>;

/**
 * When the scheduler next looks at the worker: at once when a check is due now
 * (new, or a changed registration), never while monitoring is off. The
 * scheduler (schedule.ts) moves it after each check.
 */
export function nextCheckOnChange(monitoring: MonitoringSettings, now: Date): string | null {
  if (!monitoring.enabled) return null;
  return now.toISOString();
}

const workerEvent = (deps: Deps, type: 'worker.created' | 'worker.updated' | 'worker.archived', w: WorkerItem) =>
  part('event', eventPut(deps, { type, family: FAMILY, client_id: w.client_id, data: viewOf(deps, w) }));

/** POST /workers: the worker, its guards and `worker.created` in one transaction. */
export async function createWorker(deps: Deps, clientId: string, input: WorkerInput, extra: (w: WorkerItem) => Part[] = () => []): Promise<WorkerView> {
  const created = newWorker(deps, clientId, await nextId(deps, FAMILY, 'worker'), input);
  await transact(deps, [...created.parts, ...extra(created.worker)], failuresAmong(GUARD_FAILURES, created.parts));
  return viewOf(deps, created.worker);
}

/** What creating worker `id` writes: the worker, its guards, its due item and `worker.created` (an import writes many at once). */
export function newWorker(deps: Deps, clientId: string, id: number, input: WorkerInput): { worker: WorkerItem; parts: Part[] } {
  const now = deps.clock().toISOString();
  const worker: WorkerItem = {
    ...input,
    id,
    client_id: clientId,
    outcome: 'unverified',
    registration_status: null,
    expires_on: null,
    open_alerts: 0,
    next_check_at: nextCheckOnChange(input.monitoring, deps.clock()),
    last_checked_at: null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  };
  return {
    worker,
    parts: [
      part('worker', putItem(deps, { ...workerKeys.worker(clientId, id), entity: 'worker', ...worker }, itemAbsent)),
      ...guardParts(deps, clientId, id, undefined, input),
      ...dueParts(deps, clientId, id, null, worker.next_check_at),
      workerEvent(deps, 'worker.created', worker),
    ],
  };
}

export async function getWorkerItem(deps: Deps, clientId: string, id: number): Promise<WorkerItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: workerKeys.worker(clientId, id), ConsistentRead: true }));
  return Item as WorkerItem | undefined;
}

/** The caller's worker, archived or not; another client's is not-found. */
export async function requireWorker(deps: Deps, clientId: string, id: number): Promise<WorkerItem> {
  const worker = await getWorkerItem(deps, clientId, id);
  if (!worker) throw new DomainError('not-found', `No worker ${id}`);
  return worker;
}

/** The caller's worker, not archived: what every write and check needs. */
export async function requireActiveWorker(deps: Deps, clientId: string, id: number): Promise<WorkerItem> {
  const worker = await requireWorker(deps, clientId, id);
  if (worker.archived_at) throw new DomainError('worker-archived', `Worker ${id} is archived`, { worker_id: id });
  return worker;
}

export const getWorker = async (deps: Deps, clientId: string, id: number): Promise<WorkerView> => viewOf(deps, await requireWorker(deps, clientId, id));

export interface WorkerFilter {
  outcome?: Outcome;
  register?: Register;
  monitored?: boolean;
  external_ref?: string;
  q?: string;
  /** true: archived workers only; otherwise only workers not archived. */
  archived?: boolean;
  limit: number;
  cursor?: string;
}

function matches(w: WorkerItem, f: WorkerFilter): boolean {
  if (Boolean(w.archived_at) !== Boolean(f.archived)) return false;
  if (f.outcome && w.outcome !== f.outcome) return false;
  if (f.register && w.registration.register !== f.register) return false;
  if (f.monitored !== undefined && w.monitoring.enabled !== f.monitored) return false;
  if (f.external_ref !== undefined && w.external_ref !== f.external_ref) return false;
  if (f.q) {
    const q = f.q.toLowerCase();
    const haystack = [`${w.first_name} ${w.last_name}`, w.external_ref ?? '', w.registration.number, w.email ?? ''].join('\n').toLowerCase();
    if (!haystack.includes(q)) return false;
  }
  return true;
}

/** The client's workers that are not archived, with the fields named (a batch of all, the usage summary's counts). */
export const activeWorkers = (deps: Deps, clientId: string, fields: string): Promise<Record<string, unknown>[]> =>
  queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'attribute_type(archived_at, :null)',
    ProjectionExpression: fields,
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': workerKeys.prefix(), ':null': 'NULL' },
  });

/** GET /workers: newest first, filtered. */
export const listWorkers = (deps: Deps, clientId: string, filter: WorkerFilter): Promise<Page<WorkerView>> =>
  queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: workerKeys.prefix(), limit: filter.limit, cursor: filter.cursor }, (item) => {
    const w = item as unknown as WorkerItem;
    return matches(w, filter) ? viewOf(deps, w) : undefined;
  });

/** *workerUnchanged*: nobody wrote the worker since it was read, and it is not archived. */
const workerUnchanged = (w: WorkerItem): Condition => ({
  expression: 'updated_at = :seen AND attribute_type(archived_at, :null)',
  values: { ':seen': w.updated_at, ':null': 'NULL' },
});

/**
 * PUT and PATCH: `next` computes the new writable form from the current
 * worker (PATCH merges onto it), run again if another write got in between.
 * A changed registration resets the outcome to `unverified`.
 */
export function replaceWorker(deps: Deps, clientId: string, id: number, next: (current: ClientForm) => WorkerInput, extra: Part[] = []): Promise<WorkerView> {
  return retryOnConflict(async () => {
    const current = await requireActiveWorker(deps, clientId, id);
    const input = next(clientForm(current));
    const now = deps.clock();
    const regChanged = !sameRegistration(current.registration, input.registration);
    const monitoringChanged = JSON.stringify(current.monitoring) !== JSON.stringify(input.monitoring);
    const reset: Partial<WorkerItem> = regChanged ? { outcome: 'unverified', registration_status: null, expires_on: null } : {};
    // A changed registration is checked at once; changed settings move the next check by the cadence.
    const nextCheck = regChanged
      ? nextCheckOnChange(input.monitoring, now)
      : monitoringChanged
        ? nextCheckOnSettings(input.monitoring, current, now, deps.config.serviceTimeZone)
        : current.next_check_at;
    const changes: Partial<WorkerItem> = { ...input, ...reset, next_check_at: nextCheck, updated_at: now.toISOString() };
    const updated: WorkerItem = { ...current, ...changes };
    const guards = guardParts(deps, clientId, id, writableForm(current), input);
    await transact(
      deps,
      [
        part('worker', updateItem(deps, workerKeys.worker(clientId, id), { set: changes }, workerUnchanged(current))),
        ...guards,
        ...dueParts(deps, clientId, id, current.next_check_at, nextCheck),
        workerEvent(deps, 'worker.updated', updated),
        ...extra,
      ],
      failuresAmong(GUARD_FAILURES, guards),
    );
    return viewOf(deps, updated);
  });
}

/**
 * DELETE /workers/{id}: archives. Monitoring stops and the guards go (the
 * number can be monitored again under a new worker); verifications and
 * evidence stay. Archiving an archived worker changes nothing.
 */
export function archiveWorker(deps: Deps, clientId: string, id: number): Promise<void> {
  return retryOnConflict(async () => {
    const current = await requireWorker(deps, clientId, id);
    if (current.archived_at) return;
    const now = deps.clock().toISOString();
    const changes: Partial<WorkerItem> = { archived_at: now, next_check_at: null, open_alerts: 0, updated_at: now };
    const archived: WorkerItem = { ...current, ...changes };
    const open = await openAlertsOf(deps, clientId, id);
    await transact(deps, [
      part('worker', updateItem(deps, workerKeys.worker(clientId, id), { set: changes }, workerUnchanged(current))),
      ...guardParts(deps, clientId, id, writableForm(current), undefined),
      ...dueParts(deps, clientId, id, current.next_check_at, null),
      workerEvent(deps, 'worker.archived', archived),
      ...[...open.values()].flatMap((a) => resolveParts(deps, a, 'worker_archived', now)),
    ]);
  });
}
