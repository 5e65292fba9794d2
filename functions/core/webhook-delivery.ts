import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunksOf, getMany, queryPage, writeMany } from './db.js';
import type { Deps } from './deps.js';
import type { FamilyId } from './families.js';
import type { DomainEvent } from './outbox.js';
import type { Page } from './pagination.js';
import { batchFailures, type BatchConsumer, type QueueMessage } from './sqs.js';
import { formatWithOffset } from './time.js';
import { policyFromEnv, type UrlPolicy } from './url-guard.js';
import { attemptDelivery } from './webhook-attempt.js';
import { logItem, settleEndpoint, type Attempt } from './webhook-bookkeeping.js';
import { MAX_VISIBILITY_SECONDS, RETRY_SCHEDULE } from './webhook-retry.js';
import { listEndpoints, webhookKeys, type EndpointItem } from './webhooks.js';

/**
 * Webhook delivery. Fan-out turns one event into one message per subscribed
 * active endpoint; delivery POSTs it, signed (webhook-attempt.ts), and
 * records the attempt (webhook-bookkeeping.ts). A failure is retried by
 * making the message visible again after the next step of the schedule
 * (webhook-retry.ts); after the last step SQS moves it to the dead-letter
 * queue.
 */

export interface DeliveryMessage {
  event: DomainEvent;
  client_id: string;
  family: FamilyId;
  endpoint_id: number;
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
  return event.endpoint_id !== undefined ? endpoint.id === event.endpoint_id : endpoint.events.includes(event.type);
}

/**
 * The fan-out of a batch of events. The events that share a client and
 * family share one endpoint query, and their deliveries are queued ten to a
 * request. An event whose deliveries could not all be queued is failed, so it
 * is fanned out again (receivers de-duplicate by webhook-id).
 */
export function fanOut(deps: Deps, sqs: SQSClient, deliveriesUrl: string, onError: OnError = () => undefined): BatchConsumer {
  return async (batch) => {
    const { failed, fail } = batchFailures(onError);
    const events = batch.flatMap((queued) => {
      try {
        return [{ queued, event: JSON.parse(queued.body) as DomainEvent }];
      } catch (err) {
        fail(queued, err);
        return [];
      }
    });
    const deliveries: { queued: QueueMessage; body: string }[] = [];
    await Promise.all(
      [...Map.groupBy(events, ({ event }) => `${event.client_id}\n${event.family}`).values()].map(async (group) => {
        const { client_id, family } = group[0]!.event;
        try {
          const endpoints = await listEndpoints(deps, client_id, family);
          for (const { queued, event } of group) {
            for (const endpoint of endpoints.filter((e) => wants(e, event))) {
              const message: DeliveryMessage = { event, client_id, family, endpoint_id: endpoint.id };
              deliveries.push({ queued, body: JSON.stringify(message) });
            }
          }
        } catch (err) {
          for (const { queued } of group) fail(queued, err);
        }
      }),
    );
    await Promise.all(
      chunksOf(deliveries, 10).map(async (chunk) => {
        try {
          const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: deliveriesUrl, Entries: chunk.map((d, n) => ({ Id: String(n), MessageBody: d.body })) }));
          for (const f of result.Failed ?? []) fail(chunk[Number(f.Id)]!.queued, new Error(`Could not queue a delivery: ${f.Code} ${f.Message ?? ''}`));
        } catch (err) {
          for (const { queued } of chunk) fail(queued, err);
        }
      }),
    );
    return failed;
  };
}

/**
 * The delivery of a batch of delivery messages. A batch costs one read of its
 * endpoints, its POSTs side by side, one bookkeeping update per endpoint and
 * its attempt logs written together. A failed attempt is retried by making
 * its message visible again after the next step of the schedule (after the
 * last, at once, so SQS moves it to the dead-letter queue); its message is
 * failed so SQS keeps it.
 */
export function deliver(deps: Deps, sqs: SQSClient, queueUrl: string, config: DeliveryConfig, onError: OnError = () => undefined): BatchConsumer {
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

    // Deleted, switched off or unsubscribed since the fan-out: nothing to send, and nothing to keep.
    const attempts: Attempt[] = [];
    await Promise.all(
      messages.map(async ({ queued, message }) => {
        const endpoint = endpoints.get(id(keyOf(message)));
        if (!endpoint || !wants(endpoint, message.event)) return;
        const at = deps.clock();
        const result = await attemptDelivery(endpoint, message.event, at, config.policy);
        attempts.push({ queued, message, attempt: queued.receiveCount, at, result });
      }),
    );

    const settled: Attempt[] = [];
    await Promise.all(
      [...Map.groupBy(attempts, (a) => id(keyOf(a.message))).values()].map(async (group) => {
        try {
          await settleEndpoint(deps, config, group);
          settled.push(...group);
        } catch (err) {
          for (const a of group) fail(a.queued, err);
        }
      }),
    );

    // A log that could not be written is as if the attempt never was: the message comes back.
    await Promise.all(
      chunksOf(settled, 25).map((chunk) =>
        writeMany(deps, chunk.map((a) => ({ put: logItem(a) }))).catch((err) => chunk.forEach((a) => fail(a.queued, err))),
      ),
    );

    const retries = settled.filter((a) => a.retryInSeconds !== undefined);
    await Promise.all(
      chunksOf(retries, 10).map(async (chunk) => {
        chunk.forEach((a) => fail(a.queued));
        try {
          const result = await sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: queueUrl,
              Entries: chunk.map((a, n) => ({
                Id: String(n),
                ReceiptHandle: a.queued.receiptHandle,
                VisibilityTimeout: a.retryInSeconds,
              })),
            }),
          );
          for (const f of result.Failed ?? []) onError(new Error(`Could not schedule the retry: ${f.Code} ${f.Message ?? ''}`), chunk[Number(f.Id)]!.queued.id);
        } catch (err) {
          chunk.forEach((a) => onError(err, a.queued.id));
        }
      }),
    );
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
