import { randomUUID } from 'node:crypto';
import { emailPut, outboxPut } from '../events/outbox.js';
import { monitoringAlert } from '../messaging/email-templates.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { chunksOf } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, type Part } from '../platform/transact.js';
import type { AlertItem } from './alerts.js';
import { alertRecipientPages, type TeamUserItem } from '../access/team.js';
import type { AlertMinSeverity } from '../access/roles.js';
import { severityRank, type Severity } from './outcome.js';
import { claimKeys } from './queued-checks.js';
import type { WorkerItem } from './workers.js';

/**
 * The e-mails a check's new or escalated alerts send: one per alert to each active team user whose role reads alerts and
 * whose `alert_min_severity` the alert reaches, however many they are. The
 * check's transaction queues one message on the checks queue (so a check
 * that did not commit e-mails nobody); its consumer pages through the team
 * and puts the e-mails on the outbox in transactions of up to 99, each with
 * a marker put if absent, so a redelivered message sends no batch twice.
 */

export interface AlertMailMessage {
  id: string;
  kind: 'alert-emails';
  client_id: string;
  worker_id: number;
  worker_name: string;
  verification_id: number;
  simulated: boolean;
  alerts: { id: number; type: string; severity: Severity; escalated: boolean; details: AlertItem['details'] }[];
}

/** Users read per page; e-mails per transaction (DynamoDB's 100 parts, less the batch's marker). */
const USERS_PER_PAGE = 50;
const EMAILS_PER_BATCH = 99;
const MARKER_SECONDS = 30 * 86_400;

/** Does a user with `minimum` hear of an alert of `severity`? */
const hearsOf = (minimum: AlertMinSeverity, severity: Severity): boolean => severityRank(severity) >= severityRank(minimum);

export const isAlertMail = (body: object): body is AlertMailMessage => (body as { kind?: unknown }).kind === 'alert-emails';

/** The check transaction's part that queues its alerts' e-mails, if it raised any. */
export function alertMailParts(deps: Deps, worker: WorkerItem, verificationId: number, raised: AlertItem[], simulated: boolean): Part[] {
  if (raised.length === 0) return [];
  const message: AlertMailMessage = {
    id: `aml_${randomUUID().replaceAll('-', '')}`,
    kind: 'alert-emails',
    client_id: worker.client_id,
    worker_id: worker.id,
    worker_name: `${worker.first_name} ${worker.last_name}`,
    verification_id: verificationId,
    simulated,
    alerts: raised.map((a) => ({ id: a.id, type: a.type, severity: a.severity, escalated: a.occurrences > 1, details: a.details })),
  };
  return [part('alert-emails', outboxPut(deps, 'check', message.id, message))];
}

/** Sends the message's e-mails, a page of the team at a time; returns how many this delivery queued. */
export async function sendAlertEmails(deps: Deps, message: AlertMailMessage): Promise<number> {
  let sent = 0;
  const hears = (u: TeamUserItem) => message.alerts.some((a) => hearsOf(u.alert_min_severity, a.severity));
  for await (const users of alertRecipientPages(deps, message.client_id, hears, USERS_PER_PAGE)) {
    const mails = users.flatMap((u) => message.alerts.filter((a) => hearsOf(u.alert_min_severity, a.severity)).map((alert) => ({ user: u, alert })));
    for (const batch of chunksOf(mails, EMAILS_PER_BATCH)) {
      // The batch is named by its first e-mail: the same team gives the same batches on a redelivery.
      const first = batch[0]!;
      const marker = claimKeys.claim(message.client_id, message.worker_id, `alert-mail-${message.verification_id}-${first.alert.id}-${first.user.id}`);
      const parts = batch.map(({ user, alert }, i) =>
        part(
          `email-${i}`,
          emailPut(deps, {
            to: user.email,
            ...monitoringAlert({
              userName: user.name,
              workerName: message.worker_name,
              type: alert.type,
              severity: alert.severity,
              escalated: alert.escalated,
              details: alert.details,
              alertId: alert.id,
              simulated: message.simulated,
            }),
          }),
        ),
      );
      const ttl = toEpochSeconds(addSeconds(deps.clock(), MARKER_SECONDS));
      try {
        await transact(deps, [part('marker', putItem(deps, { ...marker, entity: 'alert-mail-batch', count: batch.length, ttl }, itemAbsent)), ...parts]);
        sent += batch.length;
      } catch (err) {
        // An earlier delivery sent this batch.
        if (!(err instanceof TransactionFailed && err.has('marker'))) throw err;
      }
    }
  }
  return sent;
}
