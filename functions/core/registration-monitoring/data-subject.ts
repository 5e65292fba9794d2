import type { Deps } from '../platform/deps.js';
import { ERASED_NAME, exportFields, type DataSubjectAdapter, type Kept, type StoredItem, type SubjectFinder } from '../data-rights/adapter.js';
import { familyPrefix } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { alertKeys } from './alerts.js';
import { evidenceKeys } from './evidence.js';
import { MONITORING_FAMILY } from './registers.js';
import { archiveWorker, workerKeys } from './workers.js';

/**
 * A monitored worker as a data subject: found by their e-mail address; their
 * checks, alerts and evidence (which carry no address) belong to them by
 * worker id. An erasure archives the worker first (checks stop, the number can
 * be monitored again) and replaces their name and contact details; the checks
 * and their evidence are kept: they show the agency checked registration.
 */

const VERIFICATIONS = familyPrefix(TABLE_KEYS.client.sk.verification, MONITORING_FAMILY);
const isWorker = (item: StoredItem) => item.sk.startsWith(workerKeys.prefix());
const sectionOf = (item: StoredItem): string | undefined =>
  isWorker(item)
    ? 'workers'
    : item.sk.startsWith(VERIFICATIONS)
      ? 'verifications'
      : item.sk.startsWith(alertKeys.prefix())
        ? 'alerts'
        : item.sk.startsWith(evidenceKeys.prefix())
          ? 'evidence'
          : undefined;

function kept(items: readonly StoredItem[], now: Date, deps: Deps): Kept[] {
  const records = items.filter((i) => !isWorker(i));
  if (records.length === 0) return [];
  const dateOf = (i: StoredItem) => [i.retention_until, i.created_at].find((d): d is string => typeof d === 'string') ?? now.toISOString();
  const latest = records.map(dateOf).sort().at(-1)!;
  const until = new Date(latest);
  // An evidence record states its own end; a check or alert is kept as long as the evidence of its time.
  if (!records.some((i) => i.retention_until)) until.setUTCFullYear(until.getUTCFullYear() + deps.config.evidenceRetentionYears);
  const workers = items
    .filter(isWorker)
    .map((w) => w.id)
    .join(', ');
  return [
    {
      what: `Registration checks, alerts and their evidence for worker ${workers} (register, number, the name as checked, outcome), and the worker's registration number`,
      why: `Evidence that the agency checked the worker’s professional registration, kept for ${deps.config.evidenceRetentionYears} years`,
      until: until.toISOString().slice(0, 10),
    },
  ];
}

export const registrationMonitoringSubjectFinder: SubjectFinder = {
  family: MONITORING_FAMILY,
  prefixes: [workerKeys.prefix()],
  // Nothing is booked or paid for a worker: nothing stops an erasure.
  active: () => undefined,
  linked: {
    prefixes: [VERIFICATIONS, alertKeys.prefix(), evidenceKeys.prefix()],
    belongs: (item, found) => found.some((w) => isWorker(w) && w.id === item.worker_id),
  },
};

export const registrationMonitoringSubjects: DataSubjectAdapter = {
  ...registrationMonitoringSubjectFinder,
  section: sectionOf,
  view: (deps, item) => exportFields(item, deps.config.serviceTimeZone),
  erasedFields: (_item, now) => ({
    first_name: ERASED_NAME,
    last_name: '',
    email: null,
    phone: null,
    job_role: null,
    external_ref: null,
    erased_at: now.toISOString(),
    updated_at: now.toISOString(),
  }),
  files: () => [],
  kept,
  beforeErase: async (deps, item) => {
    if (isWorker(item) && !item.archived_at) await archiveWorker(deps, String(item.client_id), Number(item.id));
  },
};
