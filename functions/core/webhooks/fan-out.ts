import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Deps } from '../platform/deps.js';
import type { DomainEvent } from '../events/outbox.js';
import { isBroadcast } from '../events/kinds.js';
import { listClients } from '../access/clients.js';
import { batchFailures, type BatchConsumer, type QueueMessage } from '../platform/sqs.js';
import { toQueueJson } from '../platform/queue-text.js';
import { laneOf, queueAll, wants, type DeliveryMessage, type Lanes, type OnError, type Outgoing } from './delivery.js';
import { listEndpoints } from './endpoints.js';

/**
 * The fan-out of a batch of events. The events that share a client and
 * family share one endpoint query, and their deliveries are queued ten to a
 * request, each in its endpoint's lane. A broadcast kind goes to every
 * enabled client's endpoints (the same event id for each). An event whose
 * deliveries could not all be queued is failed, so it is fanned out again
 * (receivers de-duplicate by webhook-id).
 */
export function fanOut(deps: Deps, sqs: SQSClient, lanes: Lanes, onError: OnError = () => undefined): BatchConsumer {
  return async (batch) => {
    const { failed, fail } = batchFailures(onError);
    const parsed = batch.flatMap((queued) => {
      try {
        return [{ queued, event: JSON.parse(queued.body) as DomainEvent }];
      } catch (err) {
        fail(queued, err);
        return [];
      }
    });
    const events = await toEachClient(deps, parsed, fail);
    const deliveries: Outgoing[] = [];
    await Promise.all(
      [...Map.groupBy(events, ({ event }) => `${event.client_id}\n${event.family}`).values()].map(async (group) => {
        const { client_id, family } = group[0]!.event;
        try {
          const endpoints = await listEndpoints(deps, client_id, family);
          for (const { queued, event } of group) {
            for (const endpoint of endpoints.filter((e) => wants(e, event))) {
              const message: DeliveryMessage = { event, client_id, family, endpoint_id: endpoint.id };
              deliveries.push({ queued, url: lanes[laneOf(endpoint)], body: toQueueJson(message) });
            }
          }
        } catch (err) {
          for (const { queued } of group) fail(queued, err);
        }
      }),
    );
    await queueAll(sqs, deliveries, fail);
    return failed;
  };
}

/** Broadcast events as one copy per enabled client (one read of the client list per batch that has any). */
async function toEachClient(deps: Deps, events: { queued: QueueMessage; event: DomainEvent }[], fail: (queued: QueueMessage, err: unknown) => void) {
  const broadcasts = events.filter(({ event }) => isBroadcast(event.type));
  if (!broadcasts.length) return events;
  let clients: string[];
  try {
    clients = (await listClients(deps)).filter((c) => !c.disabled).map((c) => c.clientId);
  } catch (err) {
    broadcasts.forEach(({ queued }) => fail(queued, err));
    return events.filter(({ event }) => !isBroadcast(event.type));
  }
  return events.flatMap((e) => (isBroadcast(e.event.type) ? clients.map((client_id) => ({ queued: e.queued, event: { ...e.event, client_id } })) : [e]));
}
