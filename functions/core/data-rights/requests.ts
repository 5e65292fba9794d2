import { readJob, startJob } from '../jobs/jobs.js';
import { registerJobKind, type JobKind } from '../jobs/kinds.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { formatWithOffset } from '../platform/time.js';
import { part, putItem, itemAbsent } from '../platform/transact.js';
import type { Kept } from './adapter.js';
import { DATA_SUBJECT_FAMILIES, type DataSubjectAction, type DataSubjectFamily } from './families.js';
import { auditItem, readAudit, readExportDocument, type Counts } from './records.js';
import { subjectHash } from './subject.js';

/**
 * Data subject requests as an agency makes them: an export or an erasure of
 * one person's data in one family, each a job of the jobs engine (one task:
 * the person's items, read a page at a time). The job's task carries the
 * address's hash only.
 */

/** What a job's task carries: the hash, never the address. */
export interface SubjectTask {
  subject_hash: string;
}

const kindName = (action: DataSubjectAction, family: DataSubjectFamily) => `data-${action}-${family}`;
const KINDS = Object.fromEntries(
  DATA_SUBJECT_FAMILIES.flatMap((family) =>
    (['export', 'erasure'] as const).map((action) => [
      kindName(action, family),
      registerJobKind<SubjectTask>({ name: kindName(action, family), family, tasksPerMessage: 1, outboxKind: 'subject-job' }),
    ]),
  ),
);
export const subjectJobKind = (action: DataSubjectAction, family: DataSubjectFamily): JobKind<SubjectTask> => KINDS[kindName(action, family)]!;

export interface Requester {
  clientId: string;
  /** The team user acting, in the families that have them. */
  actingUser: string | null;
}

export type RequestStatus = 'queued' | 'running' | 'completed' | 'failed' | 'expired';

/** POST /data-subjects/exports: starts the export as a job. */
export const startExport = (deps: Deps, family: DataSubjectFamily, by: Requester, email: string) => queueSubjectRequest(deps, family, 'export', by, email);

/**
 * Queues a request as a job with its audit record. An erasure goes through
 * `startErasure` (erasure-start.ts), which first refuses while the person has
 * a booking to come: apart, so that the export's function does not carry
 * every family's adapter.
 */
export async function queueSubjectRequest(
  deps: Deps,
  family: DataSubjectFamily,
  action: DataSubjectAction,
  by: Requester,
  email: string,
): Promise<{ id: number; status: RequestStatus }> {
  const hash = subjectHash(email);
  const kind = subjectJobKind(action, family);
  const id = await nextId(deps, family, 'job');
  const audit = auditItem(deps, {
    action,
    client_id: by.clientId,
    family,
    job_id: id,
    subject_hash: hash,
    requested_by: { client_id: by.clientId, acting_user: by.actingUser },
    requested_at: deps.clock().toISOString(),
    status: 'queued',
    counts: {},
    kept: [],
  });
  // The audit record is written with the job: every request has one.
  const job = await startJob(deps, {
    family,
    kind: kind.name,
    clientId: by.clientId,
    requestedBy: by.actingUser,
    id,
    tasks: [{ subject_hash: hash } satisfies SubjectTask],
    parts: [part('audit', putItem(deps, audit, itemAbsent))],
  });
  return { id: job.id, status: 'queued' };
}

export const activeRefusal = (active: readonly { type: string; id: number | string; reason: string }[]) =>
  new DomainError('subject-has-active-bookings', `The person has ${active.length} booking(s) to come or payment(s) open; cancel or complete them first`, {
    active_bookings: active,
  });

/** The request as a poll shows it; another client's, or a job of another kind, is not found. */
async function readRequest(deps: Deps, family: DataSubjectFamily, action: DataSubjectAction, clientId: string, id: number) {
  const job = await readJob(deps, { clientId, family, id });
  const audit = job && job.kind === subjectJobKind(action, family).name ? await readAudit(deps, clientId, family, id) : undefined;
  if (!job || !audit) throw new DomainError('not-found', `No ${action} ${id}`);
  const at = (instant: string | undefined) => (instant ? formatWithOffset(instant, deps.config.serviceTimeZone) : null);
  const open = job.status === 'queued' || job.status === 'running';
  const status: RequestStatus = open ? (job.status as RequestStatus) : audit.status === 'completed' ? 'completed' : 'failed';
  return { job, audit, status, base: { id, status, created_at: at(job.createdAt)!, finished_at: open ? null : at(audit.finished_at ?? job.finishedAt) } };
}

export interface ErasureView {
  id: number;
  status: RequestStatus;
  created_at: string;
  finished_at: string | null;
  counts: Counts;
  kept: Kept[];
  /** Only when an erasure met a booking made after it was accepted. */
  active_bookings?: unknown[];
}

export async function getErasure(deps: Deps, family: DataSubjectFamily, clientId: string, id: number): Promise<ErasureView> {
  const { audit, base } = await readRequest(deps, family, 'erasure', clientId, id);
  return { ...base, counts: audit.counts, kept: audit.kept, ...(audit.active ? { active_bookings: audit.active } : {}) };
}

export interface ExportView {
  id: number;
  status: RequestStatus;
  created_at: string;
  finished_at: string | null;
  /** Until when `data` can be fetched. */
  expires_at: string | null;
  data: unknown;
}

export async function getExport(deps: Deps, family: DataSubjectFamily, clientId: string, id: number): Promise<ExportView> {
  const { base } = await readRequest(deps, family, 'export', clientId, id);
  if (base.status !== 'completed') return { ...base, expires_at: null, data: null };
  const document = await readExportDocument(deps, clientId, family, id);
  if (!document) return { ...base, status: 'expired', expires_at: null, data: null };
  return { ...base, expires_at: formatWithOffset(document.expiresAt, deps.config.serviceTimeZone), data: document.document };
}
