import { ChangeMessageVisibilityBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { chunksOf, getMany, writeMany, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { batchFailures, type BatchConsumer, type QueueMessage } from '../platform/sqs.js';
import { toQueueJson } from '../platform/queue-text.js';
import { webhookAttempted } from '../platform/metrics.js';
import { attemptDelivery } from './attempt.js';
import { logItem, settleEndpoint, type Attempt } from './bookkeeping.js';
import { DEFER_SECONDS, FAST_LANE_BUDGET_SECONDS, MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH } from './retry.js';
import { webhookKeys, type EndpointItem } from './endpoints.js';
import { laneOf, queueAll, wants, type DeliveryConfig, type DeliveryMessage, type LaneQueues, type OnError, type Outgoing } from './delivery.js';

/**
 * A lane's delivery of a batch (`deliver`), as named steps:
 *
 *   readBatch        parse; drop a second copy of a delivery
 *   readEndpoints    one read of the batch's endpoints
 *   triage           what to attempt now, move to the slow lane, defer, or dead-letter
 *   then per endpoint, side by side (deliverTo):
 *   attemptAll       the signed POSTs (attempt.ts)
 *   settle           one bookkeeping update, which decides each outcome (bookkeeping.ts)
 *   recordAttempts   one log item per attempt (bookkeeping.ts)
 *   scheduleRetries  each failure's message visible again after its delay (retry.ts)
 *
 * readBatch and triage touch no service, and are exported for their unit test.
 */

/** A message of the batch, read. */
interface Received {
  queued: QueueMessage;
  message: DeliveryMessage;
}

/** What every step of one batch's delivery works with. */
interface BatchRun {
  deps: Deps;
  sqs: SQSClient;
  queues: LaneQueues;
  config: DeliveryConfig;
  /** Fails a message, so SQS keeps it (and brings it back); `onError` hears its first error. */
  fail: (queued: QueueMessage, err?: unknown) => void;
  onError: OnError;
}

const keyOf = (m: DeliveryMessage): ItemKey => webhookKeys.endpoint(m.client_id, m.family, m.endpoint_id);
const idOf = (k: ItemKey) => `${k.pk}\n${k.sk}`;
/** One endpoint's identity within a batch: what its messages are grouped, bounded and looked up by. */
export const endpointOf = (m: DeliveryMessage) => idOf(keyOf(m));

/**
 * The delivery of a batch of delivery messages from one lane. A batch costs
 * one read of its endpoints, then per endpoint, side by side and each on its
 * own: its POSTs, one bookkeeping update once they have all ended, its attempt
 * logs and its retries; so an endpoint that is slow to answer delays the
 * recording of no other endpoint's attempts. Moves, deferrals and spent
 * messages are sent alongside.
 */
export function deliver(deps: Deps, sqs: SQSClient, queues: LaneQueues, config: DeliveryConfig, onError: OnError = () => undefined): BatchConsumer {
  return async (batch) => {
    const { failed, fail } = batchFailures(onError);
    const run: BatchRun = { deps, sqs, queues, config, fail, onError };
    const received = readBatch(batch, fail);
    const endpoints = await readEndpoints(deps, received, fail);
    if (!endpoints) return failed;
    const { due, moves, spent } = triage(received, endpoints, queues, config);
    await Promise.all([
      ...[...Map.groupBy(due, (d) => endpointOf(d.message)).values()].map((group) => deliverTo(run, group)),
      queueAll(sqs, moves, fail),
      scheduleRetries(
        run,
        spent.map((queued) => ({ queued, seconds: 0 })),
      ),
    ]);
    return failed;
  };
}

/** Reads the batch: a message that is not JSON fails; a second copy of a delivery already in the batch (fan-out is at least once) is done, as its twin carries it. */
export function readBatch(batch: QueueMessage[], fail: BatchRun['fail']): Received[] {
  const received: Received[] = [];
  const seen = new Set<string>();
  for (const queued of batch) {
    let message: DeliveryMessage;
    try {
      message = JSON.parse(queued.body) as DeliveryMessage;
    } catch (err) {
      fail(queued, err);
      continue;
    }
    const delivery = `${endpointOf(message)}\n${message.event.id}`;
    if (seen.has(delivery)) continue;
    seen.add(delivery);
    received.push({ queued, message });
  }
  return received;
}

/** One read of the batch's endpoints, by endpointOf; if it fails, every message fails (and comes back) and this is undefined. */
async function readEndpoints(deps: Deps, received: Received[], fail: BatchRun['fail']): Promise<Map<string, EndpointItem> | undefined> {
  try {
    const items = (await getMany(
      deps,
      received.map(({ message }) => keyOf(message)),
    )) as unknown as (EndpointItem & ItemKey)[];
    return new Map(items.map((e) => [idOf(e), e]));
  } catch (err) {
    for (const { queued } of received) fail(queued, err);
    return undefined;
  }
}

/** A delivery to attempt in this batch. */
interface Due {
  queued: QueueMessage;
  message: DeliveryMessage;
  /** Its attempt number: 1 for the first. */
  attempt: number;
  endpoint: EndpointItem;
}

/** What triage makes of a batch's messages; a message in none of the lists is done. */
interface Triage {
  due: Due[];
  /** To queue again: to the slow lane, or deferred in this lane. */
  moves: Outgoing[];
  /** Their last attempt made: to come back at once, so SQS dead-letters them. */
  spent: QueueMessage[];
}

/**
 * Sorts the batch's messages, in order. When a retry comes due in the fast
 * lane, the endpoint is failing, so the message moves to the slow lane
 * unattempted (as does any delivery to a failing endpoint that reaches the
 * fast lane: a replay, or a fan-out that read the endpoint just before it
 * failed). Beyond the lane's MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH, deliveries
 * to one endpoint are queued again in the same lane a little later. A moved or
 * deferred message carries the attempts made so far, so numbering, the
 * schedule and the dead-letter move are as if it had stayed put.
 */
export function triage(received: Received[], endpoints: Map<string, EndpointItem>, { lane, queueUrl, slowUrl }: LaneQueues, config: DeliveryConfig): Triage {
  const sorted: Triage = { due: [], moves: [], spent: [] };
  const perEndpoint = new Map<string, number>();
  for (const { queued, message } of received) {
    const attempt = (message.attempts_before ?? 0) + queued.receiveCount;
    // Its last attempt is made (a moved message's receive count lags behind): back at once until SQS dead-letters it.
    if (attempt > config.schedule.length + 1) {
      sorted.spent.push(queued);
      continue;
    }
    // Deleted, switched off or unsubscribed since the fan-out: nothing to send, and nothing to keep.
    const endpoint = endpoints.get(endpointOf(message));
    if (!endpoint || !wants(endpoint, message.event)) continue;
    const body = toQueueJson({ ...message, attempts_before: attempt - 1 } satisfies DeliveryMessage);
    if (lane === 'fast' && laneOf(endpoint) === 'slow') {
      sorted.moves.push({ queued, url: slowUrl, body });
      continue;
    }
    const inBatch = (perEndpoint.get(endpointOf(message)) ?? 0) + 1;
    perEndpoint.set(endpointOf(message), inBatch);
    if (inBatch > MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH[lane]) {
      sorted.moves.push({ queued, url: queueUrl, body, delaySeconds: DEFER_SECONDS });
      continue;
    }
    sorted.due.push({ queued, message, attempt, endpoint });
  }
  return sorted;
}

/** One endpoint's attempts of this batch, then their recording, as soon as they have all ended. */
async function deliverTo(run: BatchRun, group: Due[]): Promise<void> {
  const attempts = await attemptAll(run, group);
  if (!(await settle(run, attempts))) return;
  await recordAttempts(run, attempts);
  await scheduleRetries(
    run,
    attempts.filter((a) => a.retryInSeconds !== undefined).map((a) => ({ queued: a.queued, seconds: a.retryInSeconds! })),
  );
}

/**
 * The endpoint's POSTs, side by side, listed in the order they ended (the
 * order bookkeeping takes them in). In the fast lane an attempt ends at
 * FAST_LANE_BUDGET_SECONDS at the latest (as a failure, which sends the
 * endpoint's deliveries through the slow lane), so a batch never holds one of
 * the fast lane's concurrent batches much longer.
 */
async function attemptAll({ deps, queues: { lane }, config }: BatchRun, group: Due[]): Promise<Attempt[]> {
  const budgetSeconds = lane === 'fast' ? FAST_LANE_BUDGET_SECONDS : Infinity;
  const attempts: Attempt[] = [];
  await Promise.all(
    group.map(async ({ queued, message, attempt, endpoint }) => {
      const at = deps.clock();
      const result = await attemptDelivery(endpoint, message.event, at, config.policy, budgetSeconds);
      webhookAttempted(message.family, lane, result.ok ? 'delivered' : 'failed');
      attempts.push({ queued, message, attempt, at, result });
    }),
  );
  return attempts;
}

/** The endpoint's one bookkeeping update, which decides each attempt's outcome; false if it failed (the attempts' messages fail, and come back). */
async function settle({ deps, config, fail }: BatchRun, attempts: Attempt[]): Promise<boolean> {
  try {
    await settleEndpoint(deps, config, attempts);
    return true;
  } catch (err) {
    for (const a of attempts) fail(a.queued, err);
    return false;
  }
}

/** The attempt logs, 25 to a write. A log that could not be written is as if the attempt never was: the message comes back. */
async function recordAttempts({ deps, fail }: BatchRun, attempts: Attempt[]): Promise<void> {
  await Promise.all(
    chunksOf(attempts, 25).map((chunk) =>
      writeMany(
        deps,
        chunk.map((a) => ({ put: logItem(a) })),
      ).catch((err) => chunk.forEach((a) => fail(a.queued, err))),
    ),
  );
}

/**
 * Sets the visibility of messages to retry, ten to a request: a failed
 * attempt's after the schedule's next step; after the last, 0 (at once, so
 * SQS moves it to the dead-letter queue). Each stays failed so SQS keeps it.
 */
async function scheduleRetries({ sqs, queues: { queueUrl }, fail, onError }: BatchRun, retries: { queued: QueueMessage; seconds: number }[]): Promise<void> {
  await Promise.all(
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
}
