import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { eventPut } from '../events/outbox.js';
import { getMany, queryAll, queryFilteredPage, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { formatWithOffset } from '../platform/time.js';
import { deleteItem, itemAbsent, part, putItem, transact, updateItem, type Condition, type Part } from '../platform/transact.js';
import { severityRank, type AlertCondition, type AlertType, type Severity } from './outcome.js';
import { retentionFields } from './evidence-retention.js';
import { retained } from '../platform/clock.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';

/**
 * Alerts: one unresolved alert per worker and type, kept
 * so by a guard item put only if absent and deleted when the alert
 * resolves. Checks raise, bump, escalate and resolve them inside their own
 * transaction; people only acknowledge.
 */

export type AlertStatus = 'open' | 'acknowledged' | 'resolved';

export interface AlertItem {
  id: number;
  client_id: string;
  worker_id: number;
  type: AlertType;
  severity: Severity;
  status: AlertStatus;
  details: { from: unknown; to: unknown };
  first_seen_at: string;
  last_seen_at: string;
  occurrences: number;
  verification_ids: number[];
  acknowledged_at: string | null;
  acknowledged_by: number | null;
  note: string | null;
  resolved_at: string | null;
  resolution: 'condition_cleared' | 'worker_archived' | null;
  updated_at: string;
  /** Set when resolved: kept until then, from the resolving check (evidence-retention.ts); an unresolved alert is current and kept. */
  retention_until?: string;
}

interface GuardItem {
  alert_id: number;
  type: AlertType;
  severity: Severity;
}

const CLIENT = TABLE_KEYS.client;
export const alertKeys = {
  alert: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.alert, FAMILY, padId(id)) }),
  prefix: () => familyPrefix(CLIENT.sk.alert, FAMILY),
  guard: (clientId: string, workerId: number, type: AlertType) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.alertGuard, FAMILY, padId(workerId), type),
  }),
  guardsOf: (workerId: number) => key(familyPrefix(CLIENT.sk.alertGuard, FAMILY), padId(workerId), ''),
};

const at = (iso: string | null, tz: string) => (iso ? formatWithOffset(iso, tz) : null);

export function toAlertView(a: AlertItem, timeZone: string) {
  return {
    id: a.id,
    worker_id: a.worker_id,
    type: a.type,
    severity: a.severity,
    status: a.status,
    details: a.details,
    first_seen_at: formatWithOffset(a.first_seen_at, timeZone),
    last_seen_at: formatWithOffset(a.last_seen_at, timeZone),
    occurrences: a.occurrences,
    verification_ids: a.verification_ids,
    acknowledged_at: at(a.acknowledged_at, timeZone),
    acknowledged_by: a.acknowledged_by,
    note: a.note,
    resolved_at: at(a.resolved_at, timeZone),
    resolution: a.resolution,
  };
}
export type AlertView = ReturnType<typeof toAlertView>;
const viewOf = (deps: Deps, a: AlertItem) => toAlertView(a, deps.config.serviceTimeZone);

/** *guardHeldBy*: the guard still names this alert (nobody resolved it meanwhile). */
const guardHeldBy = (alertId: number): Condition => ({ expression: 'alert_id = :alert', values: { ':alert': alertId } });

const alertEvent = (deps: Deps, type: 'alert.created' | 'alert.escalated' | 'alert.resolved' | 'alert.acknowledged', a: AlertItem, name: string) =>
  part(name, eventPut(deps, { type, family: FAMILY, client_id: a.client_id, data: viewOf(deps, a) }));

/** The worker's unresolved alerts, by type. */
export async function openAlertsOf(deps: Deps, clientId: string, workerId: number): Promise<Map<AlertType, AlertItem>> {
  const guards = (await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': alertKeys.guardsOf(workerId) },
    ConsistentRead: true,
  })) as unknown as GuardItem[];
  const alerts = (await getMany(
    deps,
    guards.map((g) => alertKeys.alert(clientId, g.alert_id)),
  )) as unknown as AlertItem[];
  return new Map(alerts.map((a) => [a.type, a]));
}

export interface AlertPlan {
  parts: Part[];
  /** Change to the worker's `open_alerts`. */
  openDelta: number;
  /** Alerts created or escalated: whom to e-mail. */
  raised: AlertItem[];
}

/**
 * What a check does to the worker's alerts: a new condition raises an alert;
 * a repeat bumps `occurrences` silently; a higher severity escalates it (and
 * reopens an acknowledged one); a condition of `scope` that is gone resolves.
 */
export async function planAlerts(
  deps: Deps,
  ctx: { clientId: string; workerId: number; verificationId: number; now: string },
  conditions: AlertCondition[],
  scope: readonly AlertType[],
  open: Map<AlertType, AlertItem>,
): Promise<AlertPlan> {
  const plan: AlertPlan = { parts: [], openDelta: 0, raised: [] };
  const { clientId, workerId, verificationId, now } = ctx;
  for (const c of conditions) {
    const current = open.get(c.type);
    if (!current) {
      const alert: AlertItem = {
        id: await nextId(deps, FAMILY, 'alert'),
        client_id: clientId,
        worker_id: workerId,
        type: c.type,
        severity: c.severity,
        status: 'open',
        details: c.details,
        first_seen_at: now,
        last_seen_at: now,
        occurrences: 1,
        verification_ids: [verificationId],
        acknowledged_at: null,
        acknowledged_by: null,
        note: null,
        resolved_at: null,
        resolution: null,
        updated_at: now,
      };
      const guard = { ...alertKeys.guard(clientId, workerId, c.type), entity: 'alert-guard', alert_id: alert.id, type: c.type, severity: c.severity };
      plan.parts.push(
        part(`alert-${c.type}`, putItem(deps, { ...alertKeys.alert(clientId, alert.id), entity: 'alert', ...alert }, itemAbsent)),
        part(`guard-${c.type}`, putItem(deps, guard, itemAbsent)),
        alertEvent(deps, 'alert.created', alert, `event-${c.type}`),
      );
      plan.openDelta++;
      plan.raised.push(alert);
      continue;
    }
    const escalated = severityRank(c.severity) > severityRank(current.severity);
    const changes: Partial<AlertItem> = {
      last_seen_at: now,
      occurrences: current.occurrences + 1,
      verification_ids: [...current.verification_ids, verificationId].slice(-100),
      details: escalated ? c.details : current.details,
      updated_at: now,
      ...(escalated ? { severity: c.severity, status: 'open' as const } : {}),
    };
    const updated: AlertItem = { ...current, ...changes };
    plan.parts.push(
      part(
        `alert-${c.type}`,
        updateItem(
          deps,
          alertKeys.alert(clientId, current.id),
          { set: changes },
          { expression: 'updated_at = :seen', values: { ':seen': current.updated_at } },
        ),
      ),
      part(`guard-${c.type}`, updateItem(deps, alertKeys.guard(clientId, workerId, c.type), { set: { severity: updated.severity } }, guardHeldBy(current.id))),
    );
    if (escalated) {
      plan.parts.push(alertEvent(deps, 'alert.escalated', updated, `event-${c.type}`));
      plan.raised.push(updated);
    }
  }
  for (const [type, current] of open) {
    if (!scope.includes(type) || conditions.some((c) => c.type === type)) continue;
    plan.parts.push(...resolveParts(deps, current, 'condition_cleared', now));
    plan.openDelta--;
  }
  return plan;
}

/** Resolving an alert: its status, its guard gone, `alert.resolved`. */
export function resolveParts(deps: Deps, a: AlertItem, resolution: 'condition_cleared' | 'worker_archived', now: string): Part[] {
  const changes: Partial<AlertItem> = { status: 'resolved', resolved_at: now, resolution, updated_at: now };
  return [
    part(
      `alert-${a.type}`,
      updateItem(
        deps,
        alertKeys.alert(a.client_id, a.id),
        { set: { ...changes, ...retentionFields(deps, now) } },
        { expression: 'updated_at = :seen', values: { ':seen': a.updated_at } },
      ),
    ),
    part(`guard-${a.type}`, deleteItem(deps, alertKeys.guard(a.client_id, a.worker_id, a.type), guardHeldBy(a.id))),
    alertEvent(deps, 'alert.resolved', { ...a, ...changes }, `event-${a.type}`),
  ];
}

export async function getAlertItem(deps: Deps, clientId: string, id: number): Promise<AlertItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: alertKeys.alert(clientId, id), ConsistentRead: true }));
  return Item && retained(Item as AlertItem, deps.clock()) ? (Item as AlertItem) : undefined;
}

export async function getAlert(deps: Deps, clientId: string, id: number): Promise<AlertView> {
  const alert = await getAlertItem(deps, clientId, id);
  if (!alert) throw new DomainError('not-found', `No alert ${id}`);
  return viewOf(deps, alert);
}

export interface AlertFilter {
  status?: AlertStatus;
  severity?: Severity;
  type?: AlertType;
  worker_id?: number;
  limit: number;
  cursor?: string;
}

/** GET /alerts: newest first. */
export function listAlerts(deps: Deps, clientId: string, f: AlertFilter): Promise<Page<AlertView>> {
  const now = deps.clock();
  return queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: alertKeys.prefix(), limit: f.limit, cursor: f.cursor }, (item) => {
    const a = item as unknown as AlertItem;
    const keep =
      retained(a, now) &&
      (!f.status || a.status === f.status) &&
      (!f.severity || a.severity === f.severity) &&
      (!f.type || a.type === f.type) &&
      (!f.worker_id || a.worker_id === f.worker_id);
    return keep ? viewOf(deps, a) : undefined;
  });
}

export type AcknowledgeResult = 'acknowledged' | 'already_acknowledged' | 'resolved' | 'not_found';

/** Acknowledges one alert: a repeat changes nothing; a resolved one is refused. */
export function acknowledgeAlert(
  deps: Deps,
  clientId: string,
  id: number,
  by: { userId: number | null; note: string | null },
): Promise<{ result: AcknowledgeResult; alert?: AlertView }> {
  return retryOnConflict(async () => {
    const alert = await getAlertItem(deps, clientId, id);
    if (!alert) return { result: 'not_found' as const };
    if (alert.status === 'resolved') return { result: 'resolved' as const, alert: viewOf(deps, alert) };
    if (alert.status === 'acknowledged') return { result: 'already_acknowledged' as const, alert: viewOf(deps, alert) };
    const now = deps.clock().toISOString();
    const changes: Partial<AlertItem> = { status: 'acknowledged', acknowledged_at: now, acknowledged_by: by.userId, note: by.note, updated_at: now };
    const updated = { ...alert, ...changes };
    await transact(deps, [
      part(
        'alert',
        updateItem(deps, alertKeys.alert(clientId, id), { set: changes }, { expression: 'updated_at = :seen', values: { ':seen': alert.updated_at } }),
      ),
      alertEvent(deps, 'alert.acknowledged', updated, 'event'),
    ]);
    return { result: 'acknowledged' as const, alert: viewOf(deps, updated) };
  });
}

/** POST /alerts/{id}/acknowledge: the alert, or not-found / alert-resolved. */
export async function acknowledgeOne(deps: Deps, clientId: string, id: number, by: { userId: number | null; note: string | null }): Promise<AlertView> {
  const { result, alert } = await acknowledgeAlert(deps, clientId, id, by);
  if (result === 'not_found') throw new DomainError('not-found', `No alert ${id}`);
  if (result === 'resolved') throw new DomainError('alert-resolved', `Alert ${id} is resolved`, { alert_id: id });
  return alert!;
}

/** POST /alerts/acknowledge: each distinct id on its own; one's refusal does not stop the others. */
export async function acknowledgeMany(
  deps: Deps,
  clientId: string,
  ids: number[],
  by: { userId: number | null; note: string | null },
): Promise<{ id: number; result: AcknowledgeResult }[]> {
  const distinct = [...new Set(ids)];
  return Promise.all(distinct.map(async (id) => ({ id, result: (await acknowledgeAlert(deps, clientId, id, by)).result })));
}
