import { createHash, randomUUID } from 'node:crypto';
import { toEpochSeconds, addSeconds } from '../platform/clock.js';
import type { Deps } from '../platform/deps.js';
import type { EventKind, FamilyEvent } from './kinds.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { DELIVERY_LANES } from '../webhooks/retry.js';
import { toQueueJson } from '../platform/queue-text.js';
import { correlationId } from '../platform/correlation.js';

/**
 * The outbox: events, e-mails, job tasks and scheduled checks are written in the same
 * transaction as the change that causes them, then relayed to their queues (a
 * DynamoDB stream in the cloud, a poller locally). Nothing is sent for a
 * change that did not commit, and nothing committed is lost. Webhook
 * replays are written here too (a delivery for one endpoint), so that no
 * API function sends to a queue itself.
 */

export interface DomainEvent {
  id: string;
  type: EventKind;
  timestamp: string;
  /** Whose change it is; a broadcast kind (catalogue.ts) goes to every client of the family. */
  client_id: string;
  family: FamilyId;
  /** Only for `webhook.test`: the one endpoint it goes to. */
  endpoint_id?: number;
  /** The resource as the API returns it. */
  data: unknown;
}

export interface EmailMessage {
  id: string;
  template: string;
  to: string;
  subject: string;
  text: string;
  /** What the e-mail worker records once the mail service has taken the message (an invite becomes `sent`). */
  receipt?: HandOverReceipt;
  /** Text attachments (an invitation's `.ics`), sent as they are. */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  filename: string;
  content_type: string;
  content: string;
}

export type HandOverReceipt = { kind: 'booking-invite'; family: FamilyId; client_id: string; invite_id: number };

export const OUTBOX_SHARDS = 4;
/** Relayed items are only kept for diagnosis; TTL removes them. */
const OUTBOX_RETENTION_SECONDS = 7 * 86_400;

const shardOf = (id: string) => createHash('sha256').update(id).digest()[0]! % OUTBOX_SHARDS;

const OUTBOX = TABLE_KEYS.outbox;
export const outboxKeys = {
  shard: (shard: number) => key(OUTBOX.pk, shard),
  item: (id: string, createdAt: string) => ({ pk: key(OUTBOX.pk, shardOf(id)), sk: key(OUTBOX.sk.item, createdAt, id) }),
};

/** The queue (an id of lib/queues.ts) each kind of outbox item is relayed to. */
export const OUTBOX_QUEUES = {
  event: 'events',
  email: 'emails',
  job: 'jobs',
  'subject-job': 'subject_jobs',
  check: 'checks',
  delivery: DELIVERY_LANES.fast,
  refund: 'refunds',
} as const;
export type OutboxKind = keyof typeof OUTBOX_QUEUES;

/** The log line of each item the relay parks (./parked.ts): the cloud's alarm counts these lines (workers stack), the local stack writes them to its log. */
export const PARKED_LOG_MESSAGE = 'outbox item parked';

export interface OutboxItem {
  pk: string;
  sk: string;
  entity: 'outbox';
  kind: OutboxKind;
  /**
   * JSON text, so the resource travels exactly as the API showed it (a DynamoDB map would reorder its keys),
   * with everything past ASCII escaped so that any queue takes it (platform/queue-text.ts).
   */
  payload: string;
  created_at: string;
  ttl: number;
  /** The request that wrote it (platform/correlation.ts); the relay passes it on as a message attribute. */
  correlation_id?: string;
}

/** A transaction item that queues `payload` (with its own `id`) on the kind's queue once the transaction commits. */
export function outboxPut(deps: Deps, kind: OutboxKind, id: string, payload: object) {
  const now = deps.clock();
  const createdAt = now.toISOString();
  const item: OutboxItem = {
    ...outboxKeys.item(id, createdAt),
    entity: 'outbox',
    kind,
    payload: toQueueJson(payload),
    created_at: createdAt,
    ttl: toEpochSeconds(addSeconds(now, OUTBOX_RETENTION_SECONDS)),
  };
  const correlation = correlationId();
  if (correlation) item.correlation_id = correlation;
  return { Put: { TableName: deps.table, Item: item } };
}

export const newEventId = (): string => `evt_${randomUUID().replaceAll('-', '')}`;

/** A transaction item that records an event; `eventId` is its id, for callers that report it. */
export function eventPut(deps: Deps, event: Omit<DomainEvent, 'id' | 'timestamp' | 'type' | 'family'> & FamilyEvent) {
  const full: DomainEvent = { id: newEventId(), timestamp: deps.clock().toISOString(), ...event };
  return Object.assign(outboxPut(deps, 'event', full.id, full), { eventId: full.id });
}

/** A transaction item that sends an e-mail once the transaction commits. */
export function emailPut(deps: Deps, email: Omit<EmailMessage, 'id'>) {
  const id = `eml_${randomUUID().replaceAll('-', '')}`;
  return outboxPut(deps, 'email', id, { id, ...email });
}
