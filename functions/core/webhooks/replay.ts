import { addSeconds } from '../platform/clock.js';
import { queryAll, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { outboxPut, type DomainEvent } from '../events/outbox.js';
import type { DeliveryMessage } from './delivery.js';
import { requireEndpoint, webhookKeys } from './endpoints.js';

/**
 * Replay: the events an endpoint was sent since a moment,
 * the failed ones unless `all`, queued again for it as new attempts with
 * their original webhook-ids, so a receiver that de-duplicates by id takes
 * each once. The events come from the endpoint's attempt log, which keeps
 * each event as it was sent. They are queued through the outbox (its
 * `delivery` kind, relayed to the fast lane), like everything else the API
 * sends: written here, relayed once written.
 */

export const REPLAY_WINDOW_DAYS = 14;

export interface ReplayRequest {
  since: string;
  all?: boolean;
}

export async function replayDeliveries(
  deps: Deps,
  target: { clientId: string; family: FamilyId; endpointId: number },
  request: ReplayRequest,
): Promise<{ replayed: number; event_ids: string[] }> {
  const endpoint = await requireEndpoint(deps, target.clientId, target.family, target.endpointId);
  const now = deps.clock();
  const since = new Date(request.since);
  if (since < addSeconds(now, -REPLAY_WINDOW_DAYS * 86_400)) throw fieldRefusal('/since', `At most ${REPLAY_WINDOW_DAYS} days back`);
  if (since > now) throw fieldRefusal('/since', 'Must not be in the future');
  if (!endpoint.is_active) throw new DomainError('invalid-state', 'The endpoint is switched off; switch it on (PUT is_active true) before replaying');

  const attempts = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND sk >= :since',
    ExpressionAttributeValues: { ':pk': webhookKeys.logPartition(target.clientId, target.family, target.endpointId), ':since': since.toISOString() },
    ProjectionExpression: 'event_id, outcome, event_payload',
    ConsistentRead: true,
  });
  const byEvent = Map.groupBy(attempts, (a) => String(a.event_id));
  const events: DomainEvent[] = [];
  for (const tries of byEvent.values()) {
    const delivered = tries.some((t) => t.outcome === 'delivered');
    const payload = tries.map((t) => t.event_payload).find((p): p is string => typeof p === 'string');
    if ((request.all || !delivered) && payload) events.push(JSON.parse(payload) as DomainEvent);
  }
  events.sort((a, b) => a.timestamp.localeCompare(b.timestamp));

  const message = (event: DomainEvent): DeliveryMessage => ({ event, client_id: target.clientId, family: target.family, endpoint_id: endpoint.id });
  await writeMany(
    deps,
    events.map((event) => ({ put: { ...outboxPut(deps, 'delivery', event.id, message(event)).Put.Item } })),
  );
  return { replayed: events.length, event_ids: events.map((e) => e.id) };
}
