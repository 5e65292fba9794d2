import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlEnv, requireEnv } from '../platform/config.js';
import { chunksOf, getMany, queryPage, writeMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { DomainEvent } from '../events/outbox.js';
import { isBroadcast } from '../events/kinds.js';
import { listClients } from '../access/clients.js';
import type { Page } from '../platform/pagination.js';
import { batchFailures, type BatchConsumer, type QueueMessage } from '../platform/sqs.js';
import { formatWithOffset } from '../platform/time.js';
import { toQueueJson } from '../platform/queue-text.js';
import { correlationAttributes } from '../platform/correlation.js';
import { webhookAttempted } from '../platform/metrics.js';
import { policyFromEnv, type UrlPolicy } from './url-guard.js';
import { attemptDelivery } from './attempt.js';
import { logItem, settleEndpoint, type Attempt } from './bookkeeping.js';
import { DEFER_SECONDS, DELIVERY_LANES, FAST_LANE_BUDGET_SECONDS, MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH, MAX_VISIBILITY_SECONDS, RETRY_SCHEDULE, type Lane } from './retry.js';
import { listEndpoints, webhookKeys, type EndpointItem } from './endpoints.js';

/**
 * Webhook delivery. Fan-out turns one event into one message per subscribed
 * active endpoint; delivery POSTs it, signed (attempt.ts), and records the
 * attempt (bookkeeping.ts). A failure is retried by making the message
 * visible again after the next step of the schedule (retry.ts); after the
 * last step SQS moves it to the dead-letter queue. Deliveries to an endpoint
 * whose latest attempt failed, or took longer than the fast lane's budget, go
 * through the slow lane, a queue of their own with its own pollers.
 */

export interface DeliveryMessage {
  event: DomainEvent;
  client_id: string;
  family: FamilyId;
  endpoint_id: number;
  /** Attempts made before this message was queued (moved to the slow lane, or deferred): its attempt number is this plus its receive count. */
  attempts_before?: number;
}

/** A delivery to attempt in this batch. */
interface Due {
  queued: QueueMessage;
  message: DeliveryMessage;
  /** Its attempt number: 1 for the first. */
  attempt: number;
  endpoint: EndpointItem;
}

/** The delivery queues' URLs, by lane. */
export type Lanes = Record<Lane, string>;

const laneUrlFromEnv = (lane: Lane, env: NodeJS.ProcessEnv) => requireEnv(queueUrlEnv(DELIVERY_LANES[lane]), env);

export const lanesFromEnv = (env: NodeJS.ProcessEnv = process.env): Lanes => ({ fast: laneUrlFromEnv('fast', env), slow: laneUrlFromEnv('slow', env) });

/** What a lane's delivery worker sends to: its own queue (retries, deferrals) and the slow lane (the fast lane's deliveries to failing endpoints). */
export interface LaneQueues {
  lane: Lane;
  queueUrl: string;
  slowUrl: string;
}

export const laneQueuesFromEnv = (lane: Lane, env: NodeJS.ProcessEnv = process.env): LaneQueues => ({
  lane,
  queueUrl: laneUrlFromEnv(lane, env),
  slowUrl: laneUrlFromEnv('slow', env),
});

/**
 * Slow until an answer within the fast lane's budget: the latest attempt
 * failed or timed out (a run of failures is under way), or succeeded but took
 * longer than the fast lane would have waited.
 */
export const laneOf = (endpoint: EndpointItem): Lane =>
  endpoint.consecutive_failures > 0 || (endpoint.last_duration_ms ?? 0) >= FAST_LANE_BUDGET_SECONDS * 1000 ? 'slow' : 'fast';

/** A message to queue on behalf of a received one, which fails if it cannot be queued. */
interface Outgoing {
  queued: QueueMessage;
  url: string;
  body: string;
  delaySeconds?: number;
}

/** Ten to a request per queue. */
async function queueAll(sqs: SQSClient, outgoing: Outgoing[], fail: (queued: QueueMessage, err: unknown) => void): Promise<void> {
  const requests = [...Map.groupBy(outgoing, (o) => o.url)].flatMap(([url, group]) => chunksOf(group, 10).map((chunk) => ({ url, chunk })));
  await Promise.all(
    requests.map(async ({ url, chunk }) => {
      try {
        const result = await sqs.send(
          new SendMessageBatchCommand({ QueueUrl: url, Entries: chunk.map((o, n) => ({ Id: String(n), MessageBody: o.body, DelaySeconds: o.delaySeconds, ...correlationAttributes(o.queued.correlationId) })) }),
        );
        for (const f of result.Failed ?? []) fail(chunk[Number(f.Id)]!.queued, new Error(`Could not queue a delivery: ${f.Code} ${f.Message ?? ''}`));
      } catch (err) {
        for (const { queued } of chunk) fail(queued, err);
      }
    }),
  );
}

export interface DeliveryConfig {
  /** Seconds before each retry; the message's queue allows schedule.length + 1 receives. */
  schedule: number[];
  /** A run of failures this long switches the endpoint off. */
  disableAfterSeconds: number;
  policy: UrlPolicy;
}

type OnError = (err: unknown, messageId: string) => void;

export function deliveryConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE ? env.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : RETRY_SCHEDULE;
  if (schedule.some((s) => !Number.isFinite(s) || s < 0 || s > MAX_VISIBILITY_SECONDS)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be seconds from 0 to ${MAX_VISIBILITY_SECONDS}, got "${env.WEBHOOK_RETRY_SCHEDULE}"`);
  }
  return { schedule, disableAfterSeconds: Number(env.WEBHOOK_DISABLE_AFTER_SECONDS ?? 5 * 86_400), policy: policyFromEnv(env) };
}

/** The endpoints an event goes to: active, and subscribed (or, for a test event, the one it names). */
export function wants(endpoint: EndpointItem, event: DomainEvent): boolean {
  if (!endpoint.is_active) return false;
  if (event.endpoint_id !== undefined) return endpoint.id === event.endpoint_id;
  // Item events are shared by every request kind: an endpoint limited to some kinds takes only theirs.
  const kind = (event.data as { kind?: unknown } | undefined)?.kind;
  if (endpoint.request_kinds && event.type.startsWith('request_item.') && !endpoint.request_kinds.includes(String(kind))) return false;
  return endpoint.events.includes(event.type);
}

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

/**
 * The delivery of a batch of delivery messages from one lane. A batch costs
 * one read of its endpoints, then per endpoint, side by side and each on its
 * own: its POSTs, one bookkeeping update once they have all ended, its attempt
 * logs and its retries; so an endpoint that is slow to answer delays the
 * recording of no other endpoint's attempts. In the fast lane an attempt
 * ends at FAST_LANE_BUDGET_SECONDS at the latest (as a failure, which sends
 * the endpoint's deliveries through the slow lane), so a batch never holds
 * one of the fast lane's concurrent batches much longer. A failed attempt is
 * retried by making its message visible again after the next step of the
 * schedule (after the last, at once, so SQS moves it to the dead-letter
 * queue); its message is failed so SQS keeps it. When the retry comes due in
 * the fast lane, the endpoint is failing, so the message moves to the slow
 * lane unattempted (as does any delivery to a failing endpoint that reaches
 * the fast lane: a replay, or a fan-out that read the endpoint just before it
 * failed). Beyond the lane's MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH, deliveries
 * to one endpoint are queued again in the same lane a little later. A moved or
 * deferred message carries the attempts made so far, so numbering, the
 * schedule and the dead-letter move are as if it had stayed put.
 */
export function deliver(deps: Deps, sqs: SQSClient, { lane, queueUrl, slowUrl }: LaneQueues, config: DeliveryConfig, onError: OnError = () => undefined): BatchConsumer {
  return async (batch) => {
    const { failed, fail } = batchFailures(onError);
    const keyOf = (m: DeliveryMessage) => webhookKeys.endpoint(m.client_id, m.family, m.endpoint_id);
    const id = (k: { pk: string; sk: string }) => `${k.pk}\n${k.sk}`;
    const messages: { queued: QueueMessage; message: DeliveryMessage }[] = [];
    const seen = new Set<string>();
    for (const queued of batch) {
      let message: DeliveryMessage;
      try {
        message = JSON.parse(queued.body) as DeliveryMessage;
      } catch (err) {
        fail(queued, err);
        continue;
      }
      // A second copy of a delivery already in this batch (fan-out is at least once) is done: its twin carries it.
      const delivery = `${id(keyOf(message))}\n${message.event.id}`;
      if (seen.has(delivery)) continue;
      seen.add(delivery);
      messages.push({ queued, message });
    }

    let endpoints: Map<string, EndpointItem>;
    try {
      const items = (await getMany(deps, messages.map(({ message }) => keyOf(message)))) as unknown as (EndpointItem & { pk: string; sk: string })[];
      endpoints = new Map(items.map((e) => [id(e), e]));
    } catch (err) {
      for (const { queued } of messages) fail(queued, err);
      return failed;
    }

    const due: Due[] = [];
    const moves: Outgoing[] = [];
    const spent: QueueMessage[] = [];
    const perEndpoint = new Map<string, number>();
    for (const { queued, message } of messages) {
      const attempt = (message.attempts_before ?? 0) + queued.receiveCount;
      // Its last attempt is made (a moved message's receive count lags behind): back at once until SQS dead-letters it.
      if (attempt > config.schedule.length + 1) {
        spent.push(queued);
        continue;
      }
      // Deleted, switched off or unsubscribed since the fan-out: nothing to send, and nothing to keep.
      const endpoint = endpoints.get(id(keyOf(message)));
      if (!endpoint || !wants(endpoint, message.event)) continue;
      const body = toQueueJson({ ...message, attempts_before: attempt - 1 } satisfies DeliveryMessage);
      if (lane === 'fast' && laneOf(endpoint) === 'slow') {
        moves.push({ queued, url: slowUrl, body });
        continue;
      }
      const inBatch = (perEndpoint.get(id(keyOf(message))) ?? 0) + 1;
      perEndpoint.set(id(keyOf(message)), inBatch);
      if (inBatch > MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH[lane]) {
        moves.push({ queued, url: queueUrl, body, delaySeconds: DEFER_SECONDS });
        continue;
      }
      due.push({ queued, message, attempt, endpoint });
    }

    const budgetSeconds = lane === 'fast' ? FAST_LANE_BUDGET_SECONDS : Infinity;
    /** Sets the visibility of messages to retry (0: at once, to the dead-letter queue); each stays failed so SQS keeps it. */
    const retry = (retries: { queued: QueueMessage; seconds: number }[]) =>
      Promise.all(
        chunksOf(retries, 10).map(async (chunk) => {
          chunk.forEach((a) => fail(a.queued));
          try {
            const result = await sqs.send(
              new ChangeMessageVisibilityBatchCommand({
                QueueUrl: queueUrl,
                Entries: chunk.map((a, n) => ({ Id: String(n), ReceiptHandle: a.queued.receiptHandle, VisibilityTimeout: a.seconds })),
              }),
            );
            for (const f of result.Failed ?? []) onError(new Error(`Could not schedule the retry: ${f.Code} ${f.Message ?? ''}`), chunk[Number(f.Id)]!.queued.id);
          } catch (err) {
            chunk.forEach((a) => onError(err, a.queued.id));
          }
        }),
      );

    /** One endpoint's attempts of this batch, then their recording, as soon as they have all ended. */
    const deliverTo = async (group: Due[]) => {
      const attempts: Attempt[] = [];
      await Promise.all(
        group.map(async ({ queued, message, attempt, endpoint }) => {
          const at = deps.clock();
          const result = await attemptDelivery(endpoint, message.event, at, config.policy, budgetSeconds);
          webhookAttempted(message.family, lane, result.ok ? 'delivered' : 'failed');
          attempts.push({ queued, message, attempt, at, result });
        }),
      );
      try {
        await settleEndpoint(deps, config, attempts);
      } catch (err) {
        for (const a of attempts) fail(a.queued, err);
        return;
      }
      // A log that could not be written is as if the attempt never was: the message comes back.
      await Promise.all(
        chunksOf(attempts, 25).map((chunk) =>
          writeMany(deps, chunk.map((a) => ({ put: logItem(a) }))).catch((err) => chunk.forEach((a) => fail(a.queued, err))),
        ),
      );
      await retry(attempts.filter((a) => a.retryInSeconds !== undefined).map((a) => ({ queued: a.queued, seconds: a.retryInSeconds! })));
    };

    await Promise.all([
      ...[...Map.groupBy(due, (d) => id(keyOf(d.message))).values()].map(deliverTo),
      queueAll(sqs, moves, fail),
      retry(spent.map((queued) => ({ queued, seconds: 0 }))),
    ]);
    return failed;
  };
}

/** An endpoint's delivery attempts, newest first. The receiver's response body is not included. */
export function deliveryLog(deps: Deps, clientId: string, family: FamilyId, endpointId: number, page: { limit: number; cursor?: string }): Promise<Page<Record<string, unknown>>> {
  const tz = deps.config.serviceTimeZone;
  return queryPage(deps, { pk: webhookKeys.logPartition(clientId, family, endpointId), ...page }, (i) => ({
    event_id: i.event_id,
    event_type: i.event_type,
    attempt: i.attempt,
    attempted_at: formatWithOffset(String(i.attempted_at), tz),
    outcome: i.outcome,
    response_status: i.response_status,
    error: i.error,
    duration_ms: i.duration_ms,
    next_attempt_at: i.next_attempt_at && formatWithOffset(String(i.next_attempt_at), tz),
  }));
}
