import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlEnv, requireEnv, environment } from '../platform/config.js';
import { chunksOf, queryPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { DomainEvent } from '../events/outbox.js';
import type { Page } from '../platform/pagination.js';
import type { QueueMessage } from '../platform/sqs.js';
import { formatWithOffset } from '../platform/time.js';
import { correlationAttributes } from '../platform/correlation.js';
import { policyFromEnv, type UrlPolicy } from './url-guard.js';
import { DELIVERY_LANES, FAST_LANE_BUDGET_SECONDS, MAX_VISIBILITY_SECONDS, RETRY_SCHEDULE, type Lane } from './retry.js';
import { webhookKeys, type EndpointItem } from './endpoints.js';

/**
 * Webhook delivery: what its two stages share. The fan-out (fan-out.ts) turns
 * one event into one message per subscribed active endpoint, in the
 * endpoint's lane. A lane's worker (delivery-steps.ts) POSTs each, signed
 * (attempt.ts), records the attempt (bookkeeping.ts), and retries a failure
 * by making its message visible again after the next step of the schedule
 * (retry.ts); after the last step SQS moves the message to the dead-letter
 * queue. Deliveries to an endpoint whose latest attempt failed, or took
 * longer than the fast lane's budget, go through the slow lane, a queue of
 * their own with its own pollers.
 */

export interface DeliveryMessage {
  event: DomainEvent;
  client_id: string;
  family: FamilyId;
  endpoint_id: number;
  /** Attempts made before this message was queued (moved to the slow lane, or deferred): its attempt number is this plus its receive count. */
  attempts_before?: number;
}

/** The delivery queues' URLs, by lane. */
export type Lanes = Record<Lane, string>;

const laneUrlFromEnv = (lane: Lane, env: NodeJS.ProcessEnv) => requireEnv(queueUrlEnv(DELIVERY_LANES[lane]), env);

export const lanesFromEnv = (env: NodeJS.ProcessEnv = environment()): Lanes => ({ fast: laneUrlFromEnv('fast', env), slow: laneUrlFromEnv('slow', env) });

/** What a lane's delivery worker sends to: its own queue (retries, deferrals) and the slow lane (the fast lane's deliveries to failing endpoints). */
export interface LaneQueues {
  lane: Lane;
  queueUrl: string;
  slowUrl: string;
}

export const laneQueuesFromEnv = (lane: Lane, env: NodeJS.ProcessEnv = environment()): LaneQueues => ({
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
export interface Outgoing {
  queued: QueueMessage;
  url: string;
  body: string;
  delaySeconds?: number;
}

/** Ten to a request per queue. */
export async function queueAll(sqs: SQSClient, outgoing: Outgoing[], fail: (queued: QueueMessage, err: unknown) => void): Promise<void> {
  const requests = [...Map.groupBy(outgoing, (o) => o.url)].flatMap(([url, group]) => chunksOf(group, 10).map((chunk) => ({ url, chunk })));
  await Promise.all(
    requests.map(async ({ url, chunk }) => {
      try {
        const result = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: url,
            Entries: chunk.map((o, n) => ({
              Id: String(n),
              MessageBody: o.body,
              DelaySeconds: o.delaySeconds,
              ...correlationAttributes(o.queued.correlationId),
            })),
          }),
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

export type OnError = (err: unknown, messageId: string) => void;

export function deliveryConfigFromEnv(env: NodeJS.ProcessEnv = environment()): DeliveryConfig {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE ? env.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : RETRY_SCHEDULE;
  if (schedule.some((s) => !Number.isFinite(s) || s < 0 || s > MAX_VISIBILITY_SECONDS)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be seconds from 0 to ${MAX_VISIBILITY_SECONDS}, got "${env.WEBHOOK_RETRY_SCHEDULE}"`);
  }
  const disableAfterSeconds = Number(env.WEBHOOK_DISABLE_AFTER_SECONDS || 5 * 86_400);
  if (!Number.isInteger(disableAfterSeconds) || disableAfterSeconds <= 0) {
    throw new Error(`WEBHOOK_DISABLE_AFTER_SECONDS must be a positive whole number of seconds, got "${env.WEBHOOK_DISABLE_AFTER_SECONDS}"`);
  }
  return { schedule, disableAfterSeconds, policy: policyFromEnv(env) };
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

/** An endpoint's delivery attempts, newest first. The receiver's response body is not included. */
export function deliveryLog(
  deps: Deps,
  clientId: string,
  family: FamilyId,
  endpointId: number,
  page: { limit: number; cursor?: string },
): Promise<Page<Record<string, unknown>>> {
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
    next_attempt_at: typeof i.next_attempt_at === 'string' && i.next_attempt_at ? formatWithOffset(i.next_attempt_at, tz) : i.next_attempt_at,
  }));
}
