import { emailPut } from '../events/outbox.js';
import { monitoringAlert } from '../messaging/email-templates.js';
import type { Deps } from '../platform/deps.js';
import { part, type Part } from '../platform/transact.js';
import type { AlertItem } from './alerts.js';
import { alertRecipients } from '../access/team.js';
import type { AlertMinSeverity } from '../access/roles.js';
import { severityRank, type Severity } from './outcome.js';
import type { WorkerItem } from './workers.js';

/**
 * The e-mails a check's new or escalated alerts send (design section 5, rule
 * 4): one per alert to each active team user whose role reads alerts and
 * whose `alert_min_severity` the alert reaches, queued in the check's own
 * transaction, so a check that did not commit e-mails nobody.
 */

/** Does a user with `minimum` hear of an alert of `severity`? */
const hearsOf = (minimum: AlertMinSeverity, severity: Severity): boolean => severityRank(severity) >= severityRank(minimum);

/** A transaction holds 100 parts; the check's own take about a dozen. */
export const MAX_ALERT_EMAILS = 40;

export async function alertEmailParts(deps: Deps, worker: WorkerItem, raised: AlertItem[], simulated: boolean): Promise<Part[]> {
  if (raised.length === 0) return [];
  const users = await alertRecipients(deps, worker.client_id, (u) => raised.some((a) => hearsOf(u.alert_min_severity, a.severity)));
  const mails = raised.flatMap((alert) =>
    users
      .filter((u) => hearsOf(u.alert_min_severity, alert.severity))
      .map((u) => ({
        to: u.email,
        ...monitoringAlert({
          userName: u.name,
          workerName: `${worker.first_name} ${worker.last_name}`,
          type: alert.type,
          severity: alert.severity,
          escalated: alert.occurrences > 1,
          details: alert.details,
          alertId: alert.id,
          simulated,
        }),
      })),
  );
  return mails.slice(0, MAX_ALERT_EMAILS).map((mail, i) => part(`alert-email-${i}`, emailPut(deps, mail)));
}
