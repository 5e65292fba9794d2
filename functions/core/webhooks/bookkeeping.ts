import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import type { QueueMessage } from '../platform/sqs.js';
import type { AttemptResult } from './attempt.js';
import type { DeliveryConfig, DeliveryMessage } from './delivery.js';
import { retryDelay } from './retry.js';
import { LOG_RETENTION_SECONDS, webhookKeys, type EndpointItem } from './endpoints.js';

/**
 * What the delivery worker records after its POSTs: each endpoint's last
 * response and run of failures (which switches a failing endpoint off), and
 * one log item per attempt.
 */

type Outcome = 'delivered' | 'failed' | 'dead_lettered' | 'endpoint_disabled';

/** One POST of a batch and what became of it. */
export interface Attempt {
  /** The queue message that carried it. */
  queued: QueueMessage;
  message: DeliveryMessage;
  /** The receive count: 1 for the first attempt. */
  attempt: number;
  at: Date;
  result: AttemptResult;
  outcome?: Outcome;
  /** Seconds until the message is visible again: set for a failed attempt, 0 for the last one (to the dead-letter queue). */
  retryInSeconds?: number;
}

export function logItem(a: Attempt) {
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
    // The event as sent, so that it can be replayed byte for byte (POST /webhooks/{id}/replay).
    event_payload: JSON.stringify(a.message.event),
    ttl: toEpochSeconds(addSeconds(a.at, LOG_RETENTION_SECONDS)),
  };
}

/**
 * One update of the endpoint's bookkeeping for all of a batch's attempts at
 * it, taken in the order they finished: the last response code and how long
 * it took (which keeps a slow endpoint in the slow lane), and the run of
 * failures since the last success. Returns the endpoint as it now is
 * (undefined if it was deleted meanwhile).
 */
async function bookkeeping(deps: Deps, message: DeliveryMessage, results: AttemptResult[], now: Date): Promise<EndpointItem | undefined> {
  const key = webhookKeys.endpoint(message.client_id, message.family, message.endpoint_id);
  const lastSuccess = results.findLastIndex((r) => r.ok);
  const failuresSince = results.length - 1 - lastSuccess;
  const values: Record<string, unknown> = { ':now': now.toISOString(), ':code': results.at(-1)!.status, ':ms': results.at(-1)!.durationMs };
  const set = ['last_delivered_at = :now', 'last_response_code = :code', 'last_duration_ms = :ms'];
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
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
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
export async function settleEndpoint(deps: Deps, config: DeliveryConfig, attempts: Attempt[]): Promise<void> {
  const now = deps.clock();
  const first = attempts[0]!.message;
  const after = await bookkeeping(
    deps,
    first,
    attempts.map((a) => a.result),
    now,
  );
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
