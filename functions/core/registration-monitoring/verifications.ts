import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { formatWithOffset, wallClock } from '../platform/time.js';
import type { Money } from '../commerce/money.js';
import type { Change, CheckResult, Outcome, Reason } from './outcome.js';
import type { AdapterErrorCode } from './register-adapter.js';
import { retained } from '../platform/clock.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';

/**
 * Verifications: one register check of one worker, kept
 * under the worker, newest last by id. A check is written once, in the
 * transaction that applies it.
 */

export type Trigger = 'manual' | 'scheduled' | 'registration_changed' | 'batch' | 'import' | 'retry';

export interface VerificationItem {
  id: number;
  client_id: string;
  worker_id: number;
  job_id: number | null;
  import_id: number | null;
  evidence_id: number | null;
  requested_by: number | null;
  trigger: Trigger;
  status: 'completed' | 'error';
  checked_at: string;
  simulated: boolean;
  billable: boolean;
  charge: Money | null;
  source: { adapter: string; adapter_version: string; mode: 'simulated' | 'live' };
  result: CheckResult | null;
  /** What the register answered, for evidence; not shown by the API. */
  raw: unknown;
  outcome: Outcome | null;
  reasons: Reason[];
  changes: Change[];
  error: { code: AdapterErrorCode; detail: string } | null;
  /** Kept until then (evidence-retention.ts); absent on checks written before retention. */
  retention_until?: string;
}

const CLIENT = TABLE_KEYS.client;
export const verificationKeys = {
  verification: (clientId: string, workerId: number, id: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.verification, FAMILY, padId(workerId), padId(id)),
  }),
  ofWorker: (workerId: number) => key(familyPrefix(CLIENT.sk.verification, FAMILY), padId(workerId), ''),
  lock: (clientId: string, workerId: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.verifyLock, FAMILY, padId(workerId)) }),
};

export function toVerificationView(v: VerificationItem, timeZone: string) {
  return {
    id: v.id,
    worker_id: v.worker_id,
    job_id: v.job_id,
    import_id: v.import_id,
    evidence_id: v.evidence_id,
    requested_by: v.requested_by,
    trigger: v.trigger,
    status: v.status,
    checked_at: formatWithOffset(v.checked_at, timeZone),
    simulated: v.simulated,
    billable: v.billable,
    charge: v.charge,
    source: v.source,
    result: v.result,
    outcome: v.outcome,
    reasons: v.reasons,
    changes: v.changes,
    error: v.error,
  };
}
export type VerificationView = ReturnType<typeof toVerificationView>;

export async function getVerificationItem(deps: Deps, clientId: string, workerId: number, id: number): Promise<VerificationItem | undefined> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: verificationKeys.verification(clientId, workerId, id), ConsistentRead: true }),
  );
  return Item as VerificationItem | undefined;
}

/** GET /workers/{id}/verifications: newest first, on days `from` to `to` (service time zone) when given. */
export function verificationHistory(
  deps: Deps,
  clientId: string,
  workerId: number,
  q: { from?: string; to?: string; limit: number; cursor?: string },
): Promise<Page<VerificationView>> {
  const tz = deps.config.serviceTimeZone;
  const now = deps.clock();
  return queryFilteredPage(
    deps,
    { pk: clientKeys.partition(clientId), prefix: verificationKeys.ofWorker(workerId), limit: q.limit, cursor: q.cursor },
    (item) => {
      const v = item as unknown as VerificationItem;
      const day = wallClock(new Date(v.checked_at), tz).date;
      if (!retained(v, now) || (q.from && day < q.from) || (q.to && day > q.to)) return undefined;
      return toVerificationView(v, tz);
    },
  );
}
