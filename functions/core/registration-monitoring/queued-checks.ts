import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { failedItem, isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { batchFailures, type BatchConsumer } from '../platform/sqs.js';
import { isAlertMail, sendAlertEmails, type AlertMailMessage } from './alert-emails.js';
import type { DueCheck } from './due.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import { getVerificationItem, toVerificationView, type Trigger, type VerificationView } from './verifications.js';
import { recentCheck, runLocked } from './verify.js';
import { getWorkerItem, type WorkerItem } from './workers.js';

/**
 * Checks that come from a queue: a scheduled one
 * (`{worker, due_at}` from the dispatcher), or one task of a batch job or an
 * import. Each first claims its occasion, put if absent, which fixes its
 * verification id: a redelivered message finds the claim and either finds
 * that check written (done) or runs it under the same id, so its usage
 * record, keyed by that id, is written once.
 */

const CLAIM_SECONDS = 30 * 86_400;
const CLIENT = TABLE_KEYS.client;
export const claimKeys = {
  claim: (clientId: string, workerId: number, occasion: string) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.checkClaim, FAMILY, padId(workerId), occasion),
  }),
};

/** What a queued check is for: the schedule's due time, or a job's or an import's task. */
export type Occasion =
  | { kind: 'scheduled'; dueAt: string }
  | { kind: 'job'; jobId: number; requestedBy: number | null }
  | { kind: 'import'; importId: number; requestedBy: number | null };

export type QueuedOutcome =
  | { result: 'checked'; verification: VerificationView; reused: boolean }
  | { result: 'skipped'; reason: 'archived' | 'not_found' | 'not_due' | 'check_running' };

const occasionKey = (o: Occasion) => (o.kind === 'scheduled' ? `due-${o.dueAt}` : o.kind === 'job' ? `job-${o.jobId}` : `import-${o.importId}`);

/** The trigger a queued check records: a new registration's first check, a retry after an error, or the occasion's. */
function triggerOf(o: Occasion, worker: WorkerItem): Trigger {
  if (o.kind === 'job') return 'batch';
  if (o.kind === 'import') return 'import';
  if (worker.outcome === 'unverified' && !worker.consecutive_errors) return 'registration_changed';
  return worker.consecutive_errors ? 'retry' : 'scheduled';
}

/** The verification id the occasion's check uses: this call's, or the one a first delivery claimed. */
async function claim(deps: Deps, worker: WorkerItem, occasion: Occasion): Promise<number> {
  const k = claimKeys.claim(worker.client_id, worker.id, occasionKey(occasion));
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true }));
  if (Item) return Number(Item.verification_id);
  const id = await nextId(deps, FAMILY, 'verification');
  const now = deps.clock();
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...k, entity: 'check-claim', verification_id: id, claimed_at: now.toISOString(), ttl: toEpochSeconds(addSeconds(now, CLAIM_SECONDS)) },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return id;
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    return Number(failedItem(err)?.verification_id);
  }
}

/** Runs one queued check; expected refusals are outcomes, anything else throws (the queue delivers it again). */
export async function runQueuedCheck(deps: Deps, clientId: string, workerId: number, occasion: Occasion): Promise<QueuedOutcome> {
  const worker = await getWorkerItem(deps, clientId, workerId);
  if (!worker) return { result: 'skipped', reason: 'not_found' };
  if (worker.archived_at) return { result: 'skipped', reason: 'archived' };
  const id = await claim(deps, worker, occasion);
  const done = await getVerificationItem(deps, clientId, workerId, id);
  if (done) return { result: 'checked', verification: toVerificationView(done, deps.config.serviceTimeZone), reused: false };
  // The schedule moved on (a manual check, changed settings) since this was queued: nothing is due.
  if (occasion.kind === 'scheduled' && worker.next_check_at !== occasion.dueAt) return { result: 'skipped', reason: 'not_due' };
  const now = deps.clock();
  const recent = await recentCheck(deps, worker, now);
  if (recent) return { result: 'checked', verification: toVerificationView(recent, deps.config.serviceTimeZone), reused: true };
  const requestedBy = occasion.kind === 'scheduled' ? null : occasion.requestedBy;
  const request = {
    trigger: triggerOf(occasion, worker),
    requestedBy,
    jobId: occasion.kind === 'job' ? occasion.jobId : null,
    importId: occasion.kind === 'import' ? occasion.importId : null,
  };
  try {
    const answer = await runLocked(deps, worker, id, request, now, 'skip');
    if (answer === 'held') return { result: 'skipped', reason: 'check_running' };
    return { result: 'checked', verification: answer.verification, reused: answer.status === 200 };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'worker-archived') return { result: 'skipped', reason: 'archived' };
    throw err;
  }
}

/** The `checks` queue's consumer: each message a scheduled check or a check's alert e-mails; one that throws is reported, so SQS delivers it again. */
export function checksConsumer(deps: Deps, onError: (err: unknown, messageId: string) => void = () => undefined): BatchConsumer {
  return async (messages) => {
    const { failed, fail } = batchFailures(onError);
    // One after another: each holds its worker's lock for at most the register's budget.
    for (const queued of messages) {
      const body = JSON.parse(queued.body) as DueCheck | AlertMailMessage;
      const work = isAlertMail(body)
        ? sendAlertEmails(deps, body)
        : runQueuedCheck(deps, body.client_id, body.worker_id, { kind: 'scheduled', dueAt: body.due_at });
      await work.catch((err) => fail(queued, err));
    }
    return failed;
  };
}
