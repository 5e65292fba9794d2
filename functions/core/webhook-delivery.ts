import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
import { chunksOf, getMany, queryPage, writeMany } from './db.js';
import { signatureHeader } from './signing.js';
import { formatWithOffset } from './time.js';
import { policyFromEnv, vetWebhookUrl, type UrlPolicy } from './url-guard.js';
import { listEndpoints, signingSecrets, webhookKeys, type EndpointItem } from './webhooks.js';

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

/**
 * The fan-out queue's consumer. The events of a batch that share a client and
 * family share one endpoint query, and their deliveries are queued ten to a
 * request. An event whose deliveries could not all be queued is reported, so
 * it is fanned out again (receivers de-duplicate by webhook-id).
 */
export function fanOutHandler(deps: Deps, sqs: SQSClient, deliveriesUrl: string, onError: (err: unknown, record: SQSRecord) => void = () => undefined) {
  return async (batch: SQSEvent): Promise<SQSBatchResponse> => {
    const failed = new Set<string>();
    const fail = (record: SQSRecord, err: unknown) => {
      if (failed.has(record.messageId)) return;
      failed.add(record.messageId);
      onError(err, record);
    };
    const events = batch.Records.flatMap((record) => {
      try {
        return [{ record, event: JSON.parse(record.body) as DomainEvent }];
      } catch (err) {
        fail(record, err);
        return [];
      }
    });
    const deliveries: { record: SQSRecord; body: string }[] = [];
    await Promise.all(
      [...Map.groupBy(events, ({ event }) => `${event.client_id}\n${event.family}`).values()].map(async (group) => {
        const { client_id, family } = group[0]!.event;
        try {
          const endpoints = await listEndpoints(deps, client_id, family);
          for (const { record, event } of group) {
            for (const endpoint of endpoints.filter((e) => wants(e, event))) {
              const message: DeliveryMessage = { event, client_id, family, endpoint_id: endpoint.id };
              deliveries.push({ record, body: JSON.stringify(message) });
            }
          }
        } catch (err) {
          for (const { record } of group) fail(record, err);
        }
      }),
    );
    await Promise.all(
      chunksOf(deliveries, 10).map(async (chunk) => {
        try {
          const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: deliveriesUrl, Entries: chunk.map((d, n) => ({ Id: String(n), MessageBody: d.body })) }));
          for (const f of result.Failed ?? []) fail(chunk[Number(f.Id)]!.record, new Error(`Could not queue a delivery: ${f.Code} ${f.Message ?? ''}`));
        } catch (err) {
          for (const { record } of chunk) fail(record, err);
        }
      }),
    );
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
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

/** One POST of a batch and what became of it. */
interface Attempt {
  record: SQSRecord;
  message: DeliveryMessage;
  /** The receive count: 1 for the first attempt. */
  attempt: number;
  at: Date;
  result: AttemptResult;
  outcome?: Outcome;
  /** Seconds until the message is visible again: set for a failed attempt, 0 for the last one (to the dead-letter queue). */
  retryInSeconds?: number;
}

function logItem(a: Attempt) {
  const attemptedAt = a.at.toISOString();
  return {
    ...webhookKeys.logEntry(a.message.client_id, a.message.family, a.message.endpoint_id, attemptedAt, a.message.event.id, a.attempt),
    entity: 'webhook-attempt',
    event_id: a.message.event.id,
    event_type: a.message.event.type,
    attempt: a.attempt,
    attempted_at: attemptedAt,
    outcome: a.outcome,
    response_status: a.result.status,
    error: a.result.error,
    duration_ms: a.result.durationMs,
    // Kept for operators; the API never shows it (a receiver's body is not ours to echo).
    response_excerpt: a.result.excerpt,
    next_attempt_at: a.outcome === 'failed' ? addSeconds(a.at, a.retryInSeconds!).toISOString() : null,
    ttl: toEpochSeconds(addSeconds(a.at, LOG_RETENTION_SECONDS)),
  };
}

/**
 * One update of the endpoint's bookkeeping for all of a batch's attempts at
 * it, taken in the order they finished: the last response code, and the run
 * of failures since the last success. Returns the endpoint as it now is
 * (undefined if it was deleted meanwhile).
 */
async function bookkeeping(deps: Deps, message: DeliveryMessage, results: AttemptResult[], now: Date): Promise<EndpointItem | undefined> {
  const key = webhookKeys.endpoint(message.client_id, message.family, message.endpoint_id);
  const lastSuccess = results.findLastIndex((r) => r.ok);
  const failuresSince = results.length - 1 - lastSuccess;
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':code': results.at(-1)!.status };
  const set = ['last_delivered_at = :now', 'last_response_code = :code'];
  const remove: string[] = [];
  if (lastSuccess === -1) {
    set.push('consecutive_failures = consecutive_failures + :failures', 'failing_since = if_not_exists(failing_since, :now)');
    values[':failures'] = failuresSince;
  } else if (failuresSince > 0) {
    set.push('consecutive_failures = :failures', 'failing_since = :now');
    values[':failures'] = failuresSince;
  } else {
    set.push('consecutive_failures = :failures');
    values[':failures'] = 0;
    remove.push('failing_since');
  }
  if (results.some((r) => r.status === 410)) {
    set.push('is_active = :off', 'disabled_reason = :why');
    values[':off'] = false;
    values[':why'] = 'The endpoint answered 410 Gone';
  }
  const expression = `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`;
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

/** Decides each attempt's outcome after one bookkeeping update per endpoint; switches off an endpoint whose failures have lasted too long. */
async function settleEndpoint(deps: Deps, config: DeliveryConfig, attempts: Attempt[]): Promise<void> {
  const now = deps.clock();
  const first = attempts[0]!.message;
  const after = await bookkeeping(deps, first, attempts.map((a) => a.result), now);
  const gone = attempts.some((a) => a.result.status === 410);
  const failingTooLong = !!after?.failing_since && Date.parse(after.failing_since) <= now.getTime() - config.disableAfterSeconds * 1000;
  if (!gone && after && failingTooLong) {
    await switchOff(deps, first, `Deliveries have failed since ${after.failing_since}`);
  }
  for (const a of attempts) {
    if (a.result.ok) a.outcome = 'delivered';
    else if (gone || !after || failingTooLong) a.outcome = 'endpoint_disabled';
    else if (a.attempt > config.schedule.length) {
      a.outcome = 'dead_lettered';
      a.retryInSeconds = 0;
    } else {
      a.outcome = 'failed';
      a.retryInSeconds = retryDelay(config.schedule, a.attempt, a.result.retryAfterSeconds);
    }
  }
}

/**
 * The delivery queue's consumer. A batch costs one read of its endpoints,
 * its POSTs side by side, one bookkeeping update per endpoint and its attempt
 * logs written together. A failed attempt is retried by making its message
 * visible again after the next step of the schedule (after the last, at once,
 * so SQS moves it to the dead-letter queue); its record is reported failed so
 * SQS keeps it.
 */
export function deliveryHandler(deps: Deps, sqs: SQSClient, queueUrl: string, config: DeliveryConfig, onError: (err: unknown, record: SQSRecord) => void = () => undefined) {
  return async (batch: SQSEvent): Promise<SQSBatchResponse> => {
    const failed = new Set<string>();
    const fail = (record: SQSRecord, err?: unknown) => {
      if (failed.has(record.messageId)) return;
      failed.add(record.messageId);
      if (err !== undefined) onError(err, record);
    };
    const keyOf = (m: DeliveryMessage) => webhookKeys.endpoint(m.client_id, m.family, m.endpoint_id);
    const id = (k: { pk: string; sk: string }) => `${k.pk}\n${k.sk}`;
    const messages: { record: SQSRecord; message: DeliveryMessage }[] = [];
    const seen = new Set<string>();
    for (const record of batch.Records) {
      let message: DeliveryMessage;
      try {
        message = JSON.parse(record.body) as DeliveryMessage;
      } catch (err) {
        fail(record, err);
        continue;
      }
      // A second copy of a delivery already in this batch (fan-out is at least once) is done: its twin carries it.
      const delivery = `${id(keyOf(message))}\n${message.event.id}`;
      if (seen.has(delivery)) continue;
      seen.add(delivery);
      messages.push({ record, message });
    }

    let endpoints: Map<string, EndpointItem>;
    try {
      const items = (await getMany(deps, messages.map(({ message }) => keyOf(message)))) as unknown as (EndpointItem & { pk: string; sk: string })[];
      endpoints = new Map(items.map((e) => [id(e), e]));
    } catch (err) {
      for (const { record } of messages) fail(record, err);
      return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
    }

    // Deleted, switched off or unsubscribed since the fan-out: nothing to send, and nothing to keep.
    const attempts: Attempt[] = [];
    await Promise.all(
      messages.map(async ({ record, message }) => {
        const endpoint = endpoints.get(id(keyOf(message)));
        if (!endpoint || !wants(endpoint, message.event)) return;
        const at = deps.clock();
        const result = await attemptDelivery(endpoint, message.event, at, config.policy);
        attempts.push({ record, message, attempt: Number(record.attributes.ApproximateReceiveCount || '1'), at, result });
      }),
    );

    const settled: Attempt[] = [];
    await Promise.all(
      [...Map.groupBy(attempts, (a) => id(keyOf(a.message))).values()].map(async (group) => {
        try {
          await settleEndpoint(deps, config, group);
          settled.push(...group);
        } catch (err) {
          for (const a of group) fail(a.record, err);
        }
      }),
    );

    // A log that could not be written is as if the attempt never was: the message comes back.
    await Promise.all(
      chunksOf(settled, 25).map((chunk) =>
        writeMany(deps, chunk.map((a) => ({ put: logItem(a) }))).catch((err) => chunk.forEach((a) => fail(a.record, err))),
      ),
    );

    const retries = settled.filter((a) => a.retryInSeconds !== undefined);
    await Promise.all(
      chunksOf(retries, 10).map(async (chunk) => {
        chunk.forEach((a) => fail(a.record));
        try {
          const result = await sqs.send(
            new ChangeMessageVisibilityBatchCommand({
              QueueUrl: queueUrl,
              Entries: chunk.map((a, n) => ({
                Id: String(n),
                ReceiptHandle: a.record.receiptHandle,
                VisibilityTimeout: a.retryInSeconds,
              })),
            }),
          );
          for (const f of result.Failed ?? []) onError(new Error(`Could not schedule the retry: ${f.Code} ${f.Message ?? ''}`), chunk[Number(f.Id)]!.record);
        } catch (err) {
          chunk.forEach((a) => onError(err, a.record));
        }
      }),
    );
    return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
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
