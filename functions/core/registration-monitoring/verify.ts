import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { registerChecked } from '../platform/metrics.js';
import { eventPut } from '../events/outbox.js';
import { failedItem, isConditionalCheckFailed } from '../platform/conditions.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { nextId } from '../platform/ids.js';
import { wallClock } from '../platform/time.js';
import { part, putItem, transact, TransactionFailed, updateItem } from '../platform/transact.js';
import { openAlertsOf, planAlerts } from './alerts.js';
import { retentionFields } from './evidence-retention.js';
import { retained } from '../platform/clock.js';
import { evidenceFor } from './evidence.js';
import { evidenceStore } from './evidence-store.js';
import { ALERT_TYPES, alertConditions, changesSince, judge, nameMatch, type AlertCondition, type CheckResult } from './outcome.js';
import { adapterFor } from './adapters.js';
import { alertMailParts } from './alert-emails.js';
import { dueParts } from './due.js';
import { lookupWithin, RegisterUnavailable, type RegisterQuery } from './register-adapter.js';
import { RegisterBusy, takeToken, type Priority } from './register-bucket.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { nextCheckAfter, RETRY_AFTER_MS } from './schedule.js';
import { chargeFor, usageParts } from './usage.js';
import { getVerificationItem, toVerificationView, verificationKeys, type Trigger, type VerificationItem, type VerificationView } from './verifications.js';
import { requireActiveWorker, workerKeys, type WorkerItem } from './workers.js';

/**
 * One register check of one worker: a per-worker lock
 * (one check at a time), the adapter within its budget, then one
 * transaction that writes the verification, moves the worker, bills it once
 * and raises or resolves its alerts. Every trigger (manual, scheduled,
 * batch, import, retry) runs this.
 */

export const CHECK_BUDGET_MS = 8_000;
/** A check this recent is answered again, uncharged, unless `fresh`. */
export const REUSE_WITHIN_MS = 5 * 60_000;
/** The lock outlives the budget, so a crashed holder frees it soon after. */
const LOCK_MS = CHECK_BUDGET_MS + 20_000;
/** Errors in a row that raise `verification.unavailable`. */
const UNAVAILABLE_AFTER = 3;

export interface CheckRequest {
  trigger: Trigger;
  fresh?: boolean;
  requestedBy?: number | null;
  jobId?: number | null;
  importId?: number | null;
  /** The budget for the register's answer (tests and the README use the default). */
  budgetMs?: number;
}

export interface CheckAnswer {
  /** 201: this call ran the check; 200: it answers one that ran (reused, or another caller's in flight). */
  status: 200 | 201;
  verification: VerificationView;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const viewOf = (deps: Deps, v: VerificationItem) => toVerificationView(v, deps.config.serviceTimeZone);

type Lock = { acquired: true } | { acquired: false; holder: number };

async function takeLock(deps: Deps, clientId: string, workerId: number, verificationId: number, now: Date): Promise<Lock> {
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...verificationKeys.lock(clientId, workerId),
          entity: 'verify-lock',
          verification_id: verificationId,
          expires_at: new Date(now.getTime() + LOCK_MS).toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { acquired: true };
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    const old = failedItem(err);
    return { acquired: false, holder: Number(old?.verification_id) };
  }
}

const releaseLock = (deps: Deps, clientId: string, workerId: number, verificationId: number) =>
  deps.db
    .send(
      new DeleteCommand({
        TableName: deps.table,
        Key: verificationKeys.lock(clientId, workerId),
        ConditionExpression: 'verification_id = :v',
        ExpressionAttributeValues: { ':v': verificationId },
      }),
    )
    .catch((err) => {
      if (!isConditionalCheckFailed(err)) throw err;
    });

/** The check another caller holds the lock for, once it is written; undefined if its holder gave up without writing one. */
async function awaitHolder(deps: Deps, clientId: string, workerId: number, holder: number): Promise<VerificationItem | undefined> {
  const until = Date.now() + LOCK_MS;
  for (;;) {
    const done = await getVerificationItem(deps, clientId, workerId, holder);
    if (done || Date.now() > until) return done;
    await sleep(50);
  }
}

/** The worker's last completed check, if under 5 minutes old: what a call that is not `fresh` answers again, uncharged. */
export async function recentCheck(deps: Deps, worker: WorkerItem, now: Date): Promise<VerificationItem | undefined> {
  if (!worker.last_completed_verification_id || !worker.last_completed_at || now.getTime() - Date.parse(worker.last_completed_at) >= REUSE_WITHIN_MS)
    return undefined;
  return getVerificationItem(deps, worker.client_id, worker.id, worker.last_completed_verification_id);
}

/** Runs (or answers) a check of the worker now. */
export async function checkWorker(deps: Deps, clientId: string, workerId: number, request: CheckRequest): Promise<CheckAnswer> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const worker = await requireActiveWorker(deps, clientId, workerId);
    const now = deps.clock();
    const reused = request.fresh ? undefined : await recentCheck(deps, worker, now);
    if (reused) return { status: 200, verification: viewOf(deps, reused) };
    const answer = await runLocked(deps, worker, await nextId(deps, FAMILY, 'verification'), request, now, 'await');
    if (answer !== 'held') return answer;
    // its holder died without writing: take the lock again
  }
  throw new Error(`Worker ${workerId}'s check lock kept lapsing`);
}

/**
 * Check `id` of the worker under the per-worker lock. When another holds the
 * lock: its check (200) once written ('await'), or 'held' at once ('skip',
 * what queued checks do), or 'held' when its holder gave up without writing.
 * A lock held for this very id (a redelivered message while the first runs)
 * is awaited either way.
 */
export async function runLocked(
  deps: Deps,
  worker: WorkerItem,
  id: number,
  request: CheckRequest,
  now: Date,
  whenHeld: 'await' | 'skip',
): Promise<CheckAnswer | 'held'> {
  const lock = await takeLock(deps, worker.client_id, worker.id, id, now);
  if (!lock.acquired) {
    if (whenHeld === 'skip' && lock.holder !== id) return 'held';
    const held = await awaitHolder(deps, worker.client_id, worker.id, lock.holder);
    return held ? { status: lock.holder === id ? 201 : 200, verification: viewOf(deps, held) } : 'held';
  }
  try {
    return { status: 201, verification: viewOf(deps, await runAndApply(deps, worker, id, request, now)) };
  } finally {
    await releaseLock(deps, worker.client_id, worker.id, id);
  }
}

async function lookup(deps: Deps, worker: WorkerItem, now: Date, budgetMs: number, priority: Priority) {
  const register = worker.registration.register;
  const adapter = adapterFor(deps, register);
  const source = { adapter: adapter.id, adapter_version: adapter.version, mode: adapter.mode };
  const query: RegisterQuery = { register, number: worker.registration.number, first_name: worker.first_name, last_name: worker.last_name };
  try {
    if (!(await takeToken(deps, adapter, register, priority))) {
      // A queued check waits for its turn; one a person asked for says why it could not run.
      if (priority === 'queued') throw new RegisterBusy(register);
      throw new RegisterUnavailable('rate_limited', `The ${register.toUpperCase()} register's rate limit is reached; try again shortly`);
    }
    const answer = await lookupWithin(adapter, query, now, Date.now() + budgetMs);
    const result: CheckResult = answer.record
      ? { found: true, ...answer.record, name_match: nameMatch(worker.first_name, worker.last_name, answer.record.name_on_register) }
      : { found: false, name_match: null };
    return { source, result, raw: answer.raw, error: null };
  } catch (err) {
    if (!(err instanceof RegisterUnavailable)) throw err;
    return { source, result: null, raw: null, error: { code: err.code, detail: err.message } };
  }
}

/** The check itself: ask the register, then apply the answer in one transaction (again if a racing write moved the worker). */
async function runAndApply(deps: Deps, first: WorkerItem, id: number, request: CheckRequest, now: Date): Promise<VerificationItem> {
  const answer = await lookup(deps, first, now, request.budgetMs ?? CHECK_BUDGET_MS, request.trigger === 'manual' ? 'manual' : 'queued');
  const checkedAt = deps.clock();
  return retryOnConflict(async () => {
    const worker = await requireActiveWorker(deps, first.client_id, first.id);
    const last = worker.last_completed_verification_id
      ? await getVerificationItem(deps, worker.client_id, worker.id, worker.last_completed_verification_id)
      : undefined;
    // A check past its retention is gone, whether or not TTL has removed it yet: nothing to compare with.
    const previous = last && retained(last, checkedAt) ? last : undefined;
    const today = wallClock(checkedAt, deps.config.serviceTimeZone).date;
    const completed = answer.result !== null;
    const judged = answer.result ? judge(answer.result, today) : null;
    const verification: VerificationItem = {
      id,
      client_id: worker.client_id,
      worker_id: worker.id,
      job_id: request.jobId ?? null,
      import_id: request.importId ?? null,
      evidence_id: completed ? id : null,
      requested_by: request.requestedBy ?? null,
      trigger: request.trigger,
      status: completed ? 'completed' : 'error',
      checked_at: checkedAt.toISOString(),
      simulated: answer.source.mode === 'simulated',
      billable: completed,
      charge: completed ? chargeFor(deps, worker.registration.register) : null,
      source: answer.source,
      result: answer.result,
      raw: answer.raw,
      outcome: judged?.outcome ?? null,
      reasons: judged?.reasons ?? [],
      changes: answer.result ? changesSince(previous?.result ?? null, answer.result) : [],
      error: answer.error,
    };
    const errors = completed ? 0 : (worker.consecutive_errors ?? 0) + 1;
    const conditions: AlertCondition[] = answer.result
      ? alertConditions(answer.result, previous?.result?.registration_status ?? null, today)
      : errors >= UNAVAILABLE_AFTER
        ? [{ type: 'verification.unavailable', severity: 'high', details: { from: null, to: answer.error.code } }]
        : [];
    const open = await openAlertsOf(deps, worker.client_id, worker.id);
    // An error says nothing about the register: only `verification.unavailable` moves.
    const scope = completed ? ALERT_TYPES : (['verification.unavailable'] as const);
    const alerts = await planAlerts(
      deps,
      { clientId: worker.client_id, workerId: worker.id, verificationId: id, now: verification.checked_at },
      conditions,
      scope,
      open,
    );
    const emails = alertMailParts(deps, worker, id, alerts.raised, verification.simulated);
    const workerChanges: Partial<WorkerItem> = completed
      ? {
          outcome: judged!.outcome,
          registration_status: answer.result.found ? answer.result.registration_status! : 'not_found',
          expires_on: answer.result.expires_on ?? null,
          last_checked_at: verification.checked_at,
          last_completed_verification_id: id,
          last_completed_at: verification.checked_at,
          next_check_at: nextCheckAfter(worker.monitoring, checkedAt, answer.result.expires_on ?? null, deps.config.serviceTimeZone, worker.id),
        }
      : { next_check_at: worker.monitoring.enabled ? new Date(checkedAt.getTime() + RETRY_AFTER_MS).toISOString() : null };
    const evidence = completed ? evidenceFor(deps, worker, verification) : undefined;
    const updatedAt = checkedAt.toISOString() > worker.updated_at ? checkedAt.toISOString() : worker.updated_at;
    // The bytes first, write-once: a committed check always has its evidence.
    if (evidence) await evidenceStore(deps).put(evidence.object.key, evidence.object.body, evidence.object.retainUntil);
    try {
      await transact(deps, [
        part(
          'verification',
          putItem(
            deps,
            {
              ...verificationKeys.verification(worker.client_id, worker.id, id),
              entity: 'verification',
              ...verification,
              ...retentionFields(deps, verification.checked_at),
            },
            { expression: 'attribute_not_exists(pk)' },
          ),
        ),
        part(
          'worker',
          updateItem(
            deps,
            workerKeys.worker(worker.client_id, worker.id),
            {
              set: { ...workerChanges, ...evidence?.head, last_verification_id: id, consecutive_errors: errors, updated_at: updatedAt },
              add: alerts.openDelta ? { open_alerts: alerts.openDelta } : {},
            },
            { expression: 'updated_at = :seen AND attribute_type(archived_at, :null)', values: { ':seen': worker.updated_at, ':null': 'NULL' } },
          ),
        ),
        ...(evidence ? [evidence.part] : []),
        ...dueParts(deps, worker.client_id, worker.id, worker.next_check_at, workerChanges.next_check_at),
        ...usageParts(deps, worker.client_id, {
          verification_id: id,
          worker_id: worker.id,
          register: worker.registration.register,
          trigger: request.trigger,
          checked_at: verification.checked_at,
          billable: verification.billable,
        }),
        part(
          'event',
          eventPut(deps, {
            type: completed ? 'verification.completed' : 'verification.errored',
            family: FAMILY,
            client_id: worker.client_id,
            data: viewOf(deps, verification),
          }),
        ),
        ...alerts.parts,
        ...emails,
      ]);
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      // A replay of a transaction that committed: the check is done, and nothing is counted twice.
      if (err.has('verification')) return (await getVerificationItem(deps, worker.client_id, worker.id, id))!;
      // Archived meanwhile: worker-archived; otherwise the worker moved, so plan again.
      await requireActiveWorker(deps, worker.client_id, worker.id);
      throw err;
    }
    registerChecked(FAMILY, verification.outcome ?? 'error');
    return verification;
  });
}
