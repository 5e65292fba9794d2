import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { addSeconds, toEpochSeconds } from './clock.js';
import { isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { FamilyId } from './families.js';
import type { DomainEvent } from './outbox.js';
import type { Page } from './pagination.js';
import { queryPage } from './db.js';
import { signatureHeader } from './signing.js';
import { formatWithOffset } from './time.js';
import { policyFromEnv, vetWebhookUrl, type UrlPolicy } from './url-guard.js';
import { getEndpointItem, listEndpoints, signingSecrets, webhookKeys, type EndpointItem } from './webhooks.js';

/**
 * Webhook delivery. Fan-out turns one event into one message per subscribed
 * active endpoint; delivery POSTs it, signed, and records the attempt. A
 * failure is retried by making the message visible again after the next step
 * of the schedule; after the last step SQS moves it to the dead-letter queue.
 * `webhook-id` is the event id on every attempt, so receivers can
 * de-duplicate what at-least-once delivery may repeat.
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

export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];
const MAX_VISIBILITY_SECONDS = 12 * 3600;
const LOG_RETENTION_SECONDS = 30 * 86_400;
const EXCERPT_BYTES = 2048;

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

export async function fanOut(deps: Deps, sqs: SQSClient, deliveriesUrl: string, event: DomainEvent): Promise<number> {
  const targets = (await listEndpoints(deps, event.client_id, event.family)).filter((e) => wants(e, event));
  for (let i = 0; i < targets.length; i += 10) {
    const batch = targets.slice(i, i + 10);
    const result = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: deliveriesUrl,
        Entries: batch.map((endpoint, n) => ({
          Id: String(n),
          MessageBody: JSON.stringify({ event, client_id: event.client_id, family: event.family, endpoint_id: endpoint.id } satisfies DeliveryMessage),
        })),
      }),
    );
    if (result.Failed?.length) throw new Error(`Could not queue ${result.Failed.length} deliveries of ${event.id}`);
  }
  return targets.length;
}

/** The fan-out queue's consumer. A failed event is reported, so it is fanned out again (receivers de-duplicate). */
export function fanOutHandler(deps: Deps, sqs: SQSClient, deliveriesUrl: string, onError: (err: unknown, record: SQSRecord) => void = () => undefined) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        await fanOut(deps, sqs, deliveriesUrl, JSON.parse(record.body) as DomainEvent);
      } catch (err) {
        onError(err, record);
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string;
  retryAfterSeconds?: number;
}

function retryAfterOf(response: IncomingMessage, now: Date): number | undefined {
  const value = response.headers['retry-after'];
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now.getTime()) / 1000));
}

/** One signed POST to the endpoint, at an address vetted just now. Redirects are failures and are not followed. */
export async function attemptDelivery(endpoint: EndpointItem, event: DomainEvent, now: Date, policy: UrlPolicy): Promise<AttemptResult> {
  const started = Date.now();
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  const timestamp = Math.floor(now.getTime() / 1000);
  let vetted: Awaited<ReturnType<typeof vetWebhookUrl>>;
  try {
    vetted = await vetWebhookUrl(endpoint.url, policy);
  } catch (err) {
    return { ok: false, status: null, error: err instanceof DomainError ? `refused: ${err.message}` : String(err), durationMs: Date.now() - started, excerpt: '' };
  }
  const target = vetted.addresses[0]!;
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'AgencyAPI-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(endpoint, now), event.id, timestamp, body),
  };
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const send = vetted.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(vetted.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      // Connect to the address we vetted, whatever DNS says by now.
      lookup: (_host, options, callback) => {
        const cb = callback as (...args: unknown[]) => void;
        if ((options as { all?: boolean }).all) cb(null, [{ address: target.address, family: target.family }]);
        else cb(null, target.address, target.family);
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, status: null, error: `timed out after ${endpoint.timeout_seconds} s`, excerpt: '' });
    }, endpoint.timeout_seconds * 1000);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        finish({
          ok,
          status,
          error: ok ? null : status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '?'} not followed` : `HTTP ${status}`,
          excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
          retryAfterSeconds: retryAfterOf(response, now),
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done(); // enough to log; do not read a large body
      });
      response.on('end', done);
      response.on('error', done);
    });
    req.on('error', (err) => finish({ ok: false, status: null, error: err.message, excerpt: '' }));
    req.end(body);
  });
}

/** Seconds until the retry after `attempt`: the schedule's step ±20 %, or the receiver's Retry-After kept within [step, 2×step]. */
export function retryDelay(schedule: number[], attempt: number, retryAfterSeconds?: number, random = Math.random): number {
  const step = schedule[attempt - 1]!;
  const delay = retryAfterSeconds !== undefined ? Math.min(Math.max(retryAfterSeconds, step), 2 * step) : step * (0.8 + 0.4 * random());
  return Math.min(Math.round(delay), MAX_VISIBILITY_SECONDS);
}

type Outcome = 'delivered' | 'failed' | 'dead_lettered' | 'endpoint_disabled';

async function record(
  deps: Deps,
  message: DeliveryMessage,
  attempt: number,
  result: AttemptResult,
  outcome: Outcome,
  now: Date,
  nextAttemptAt: Date | null,
): Promise<void> {
  const attemptedAt = now.toISOString();
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        pk: webhookKeys.logPartition(message.client_id, message.endpoint_id),
        sk: `${attemptedAt}#${message.event.id}#${String(attempt).padStart(2, '0')}`,
        entity: 'webhook-attempt',
        event_id: message.event.id,
        event_type: message.event.type,
        attempt,
        attempted_at: attemptedAt,
        outcome,
        response_status: result.status,
        error: result.error,
        duration_ms: result.durationMs,
        // Kept for operators; the API never shows it (a receiver's body is not ours to echo).
        response_excerpt: result.excerpt,
        next_attempt_at: nextAttemptAt?.toISOString() ?? null,
        ttl: toEpochSeconds(addSeconds(now, LOG_RETENTION_SECONDS)),
      },
    }),
  );
}

/** Updates the endpoint's bookkeeping; returns it as it now is (undefined if it was deleted meanwhile). */
async function bookkeeping(deps: Deps, message: DeliveryMessage, result: AttemptResult, now: Date, gone: boolean): Promise<EndpointItem | undefined> {
  const key = webhookKeys.endpoint(message.client_id, message.family, message.endpoint_id);
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':code': result.status };
  let expression: string;
  if (result.ok) {
    expression = 'SET last_delivered_at = :now, last_response_code = :code, consecutive_failures = :zero REMOVE failing_since';
    values[':zero'] = 0;
  } else {
    expression = 'SET last_delivered_at = :now, last_response_code = :code, consecutive_failures = consecutive_failures + :one, failing_since = if_not_exists(failing_since, :now)';
    values[':one'] = 1;
  }
  if (gone) {
    expression += ', is_active = :off, disabled_reason = :why';
    values[':off'] = false;
    values[':why'] = 'The endpoint answered 410 Gone';
  }
  try {
    const { Attributes } = await deps.db.send(
      new UpdateCommand({ TableName: deps.table, Key: key, UpdateExpression: expression, ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: values, ReturnValues: 'ALL_NEW' }),
    );
    return Attributes as EndpointItem;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return undefined;
    throw err;
  }
}

async function switchOff(deps: Deps, message: DeliveryMessage, reason: string): Promise<void> {
  await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: webhookKeys.endpoint(message.client_id, message.family, message.endpoint_id),
        UpdateExpression: 'SET is_active = :off, disabled_reason = :why',
        ConditionExpression: 'is_active = :on',
        ExpressionAttributeValues: { ':off': false, ':on': true, ':why': reason },
      }),
    )
    .catch((err) => {
      if (!isConditionalCheckFailed(err)) throw err;
    });
}

/** Handles one delivery message; true when SQS may forget it, false when it must come back (or go to the DLQ). */
export async function deliverOne(deps: Deps, sqs: SQSClient, queueUrl: string, config: DeliveryConfig, sqsRecord: SQSRecord): Promise<boolean> {
  const message = JSON.parse(sqsRecord.body) as DeliveryMessage;
  const endpoint = await getEndpointItem(deps, message.client_id, message.family, message.endpoint_id);
  // Deleted, switched off or unsubscribed since the fan-out: nothing to send.
  if (!endpoint || !wants(endpoint, message.event)) return true;

  const attempt = Number(sqsRecord.attributes.ApproximateReceiveCount || '1');
  const now = deps.clock();
  const result = await attemptDelivery(endpoint, message.event, now, config.policy);
  const gone = result.status === 410;
  const after = await bookkeeping(deps, message, result, now, gone);

  if (result.ok) {
    await record(deps, message, attempt, result, 'delivered', now, null);
    return true;
  }
  if (gone || !after) {
    await record(deps, message, attempt, result, 'endpoint_disabled', now, null);
    return true;
  }
  if (after.failing_since && Date.parse(after.failing_since) <= now.getTime() - config.disableAfterSeconds * 1000) {
    await switchOff(deps, message, `Deliveries have failed since ${after.failing_since}`);
    await record(deps, message, attempt, result, 'endpoint_disabled', now, null);
    return true;
  }
  const last = attempt > config.schedule.length;
  const delay = last ? 0 : retryDelay(config.schedule, attempt, result.retryAfterSeconds);
  await record(deps, message, attempt, result, last ? 'dead_lettered' : 'failed', now, last ? null : addSeconds(now, delay));
  // Visible again after the delay; after the last attempt at once, so SQS moves it to the dead-letter queue.
  await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: sqsRecord.receiptHandle, VisibilityTimeout: delay }));
  return false;
}

/** The delivery queue's consumer: the records of a batch are delivered side by side. */
export function deliveryHandler(deps: Deps, sqs: SQSClient, queueUrl: string, config: DeliveryConfig, onError: (err: unknown, record: SQSRecord) => void = () => undefined) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const outcomes = await Promise.all(
      event.Records.map(async (r) => {
        try {
          return (await deliverOne(deps, sqs, queueUrl, config, r)) ? undefined : r.messageId;
        } catch (err) {
          onError(err, r);
          return r.messageId;
        }
      }),
    );
    return { batchItemFailures: outcomes.filter((id): id is string => !!id).map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

/** An endpoint's delivery attempts, newest first. The receiver's response body is not included. */
export function deliveryLog(deps: Deps, clientId: string, endpointId: number, page: { limit: number; cursor?: string }): Promise<Page<Record<string, unknown>>> {
  const tz = deps.config.serviceTimeZone;
  return queryPage(deps, { pk: webhookKeys.logPartition(clientId, endpointId), ...page }, (i) => ({
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
