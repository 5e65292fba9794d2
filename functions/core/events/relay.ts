import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { OUTBOX_QUEUES, type OutboxItem, type OutboxKind } from './outbox.js';
import { correlationAttributes } from '../platform/correlation.js';
import { outboxRelayed } from '../platform/metrics.js';

/**
 * Moves committed outbox items to their queues (`OUTBOX_QUEUES`: events to
 * the fan-out queue, e-mails to the e-mail queue, job tasks to the jobs
 * queue), ten to a request. Used by the stream handler in the cloud and by
 * the poller in the local stack. At least once: a crash after sending and
 * before recording sends again, and consumers de-duplicate by id.
 *
 * One bad item never holds up the others: an item the queue refuses for what
 * it carries is tried alone, up to `RELAY_TRIES` times, and then handed back
 * as `refused`, for the caller to park (./parked.ts) and go on.
 */
export interface RelayTargets {
  sqs: SQSClient;
  /** The URL of each kind's queue. */
  queueUrls: Record<OutboxKind, string>;
}

export interface RelayOutcome {
  /** Not queued for a reason that is not the item's own (the queue service, the network): send them again later. */
  notQueued: OutboxItem[];
  /** The first error behind `notQueued`. */
  error?: unknown;
  /** Refused for what they carry, or of a kind with no queue, on every try: park them. */
  refused: { item: OutboxItem; reason: string }[];
}

/** How often an item the queue refuses is tried before it is parked. */
export const RELAY_TRIES = 3;
/** One request's bodies stay under this (SQS takes up to 1 MiB a request; a queue may be set to take less). */
const BATCH_BYTES = 256 * 1024;
const BATCH_ENTRIES = 10;
/** What SQS says when a message, or a whole request, is refused for its contents rather than for the queue or the caller. */
const CONTENT_ERRORS = new Set(['InvalidMessageContents', 'InvalidParameterValue', 'InvalidParameterValueException', 'BatchRequestTooLong', 'MessageTooLong']);

/** Each outbox kind's queue URL, given the URL of a queue by its id. */
export const outboxQueueUrls = (urlOf: (queueId: string) => string) =>
  Object.fromEntries(Object.entries(OUTBOX_QUEUES).map(([kind, queue]) => [kind, urlOf(queue)])) as Record<OutboxKind, string>;

const refusesContent = (err: unknown): boolean => {
  const name = (err as { name?: string }).name ?? '';
  return CONTENT_ERRORS.has(name.replace(/^AWS\.SimpleQueueService\./, ''));
};
const describe = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/** Batches for one queue, by count and by size. */
function batchesOf(items: OutboxItem[]): OutboxItem[][] {
  const batches: OutboxItem[][] = [];
  let current: OutboxItem[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(item.payload);
    if (current.length === BATCH_ENTRIES || (current.length > 0 && bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** Queues the items, and says which were not queued and why. */
export async function relayOutbox(items: OutboxItem[], targets: RelayTargets): Promise<RelayOutcome> {
  const notQueued = new Set<OutboxItem>();
  const reasons = new Map<OutboxItem, string>();
  let error: unknown;
  const refused: RelayOutcome['refused'] = [];
  const sendable = items.filter((item) => {
    if (targets.queueUrls[item.kind]) return true;
    refused.push({ item, reason: `No queue for outbox items of kind "${item.kind}"` });
    return false;
  });

  /** Sends one batch; resolves to the items the queue refused for what they carry. */
  const send = async (queueUrl: string, batch: OutboxItem[]): Promise<OutboxItem[]> => {
    try {
      const result = await targets.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((item, n) => ({ Id: String(n), MessageBody: item.payload, ...correlationAttributes(item.correlation_id) })),
        }),
      );
      const refusedHere: OutboxItem[] = [];
      for (const f of result.Failed ?? []) {
        const item = batch[Number(f.Id)]!;
        if (f.SenderFault && CONTENT_ERRORS.has(f.Code ?? '')) {
          refusedHere.push(item);
          reasons.set(item, `${f.Code ?? 'Refused'}: ${f.Message ?? ''}`.trim());
        } else {
          notQueued.add(item);
          error ??= new Error(`Could not queue an outbox item: ${f.Code} ${f.Message ?? ''}`);
        }
      }
      return refusedHere;
    } catch (err) {
      if (!refusesContent(err)) {
        batch.forEach((item) => notQueued.add(item));
        error ??= err;
        return [];
      }
      if (batch.length === 1) {
        reasons.set(batch[0]!, describe(err));
        return batch;
      }
      // The request as a whole was refused for something one of its items holds: find which, one at a time.
      return (await Promise.all(batch.map((item) => send(queueUrl, [item])))).flat();
    }
  };

  let pending = sendable;
  for (let attempt = 1; attempt <= RELAY_TRIES && pending.length > 0; attempt++) {
    const byQueue = Map.groupBy(pending, (item) => targets.queueUrls[item.kind]);
    // Past the first try, each refused item goes alone, so that a neighbour's refusal cannot be taken for its own.
    const batches = [...byQueue].flatMap(([queueUrl, queued]) =>
      (attempt === 1 ? batchesOf(queued) : queued.map((item) => [item])).map((batch) => ({ queueUrl, batch })),
    );
    pending = (await Promise.all(batches.map(({ queueUrl, batch }) => send(queueUrl, batch)))).flat();
  }
  for (const item of pending) refused.push({ item, reason: reasons.get(item) ?? 'Refused by the queue' });
  const now = Date.now();
  for (const item of sendable) if (!notQueued.has(item) && !pending.includes(item)) outboxRelayed(item.kind, now - Date.parse(item.created_at));
  return { notQueued: items.filter((item) => notQueued.has(item)), error, refused };
}
