import type { EmailMessage } from '../events/outbox.js';
import type { EventKindOf } from '../events/catalogue.js';
import type { ItemKey } from '../platform/db.js';
import type { FamilyId } from '../platform/families.js';

/**
 * A request kind plugs into the request engine: it owns its keys, stored
 * fields, views, events and texts; the engine owns what every kind shares
 * (versioned changes, link tokens, reminders, closing and the expiry sweep).
 */

/** Request statuses the engine knows; a kind uses a subset and labels them itself. */
export type RequestStatus = 'pending' | 'in_progress' | 'awaiting_review' | 'completed' | 'cancelled' | 'expired';

/** What the engine reads and writes on every request. */
export interface StoredRequest {
  id: number;
  uuid: string;
  client_id: string;
  candidate_id: number;
  status: RequestStatus;
  expires_at: string;
  /** The public base URL the request was made through: links hang off it. */
  public_base: string;
  /** Bumped by every change; each change is conditioned on the version it read. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** What the engine reads and writes on every item (a reference is an item). */
export interface StoredItem {
  id: number;
  uuid: string;
  client_id: string;
  status: string;
  sent_at: string | null;
  expires_at: string;
  reminder_count: number;
  last_reminder_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A public page reached by an e-mailed link: the token item points at a request (and an item). */
export interface LinkKind {
  entity: string;
  key: (token: string) => ItemKey;
}

export interface RequestKind<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V> {
  family: F;
  /** Entity names of the stored items. */
  entities: { request: string; item: string; pointer: string };
  /** The stored field that points at the request (item pointers). */
  fields: { requestId: string };
  /** Id counters, one per kind. */
  counters: { request: string; item: string };
  keys: {
    request: (clientId: string, id: number) => ItemKey;
    requestPrefix: string;
    item: (clientId: string, requestId: number, id: number) => ItemKey;
    itemsOf: (requestId: number) => string;
    itemPointer: (clientId: string, id: number) => ItemKey;
    openPartition: string;
    open: (expiresAt: string, clientId: string, id: number) => { gsi1pk: string; gsi1sk: string };
  };
  /** Item statuses still waiting for their actor. */
  outstanding: readonly string[];
  /** Item statuses a reminder is due for. */
  remindable: readonly string[];
  events: Record<'created' | 'completed' | 'cancelled' | 'expired', EventKindOf<F>>;
  /** The request as the agency sees it (API, events). */
  view(request: R, items: I[], now: Date): V;
  /** The reminder to an item's actor. */
  reminderEmail(input: { request: R; item: I; agency: string }): Omit<EmailMessage, 'id'>;
  texts: {
    noRequest: (id: number) => string;
    noItem: (id: number) => string;
    closed: (id: number, status: RequestStatus) => string;
  };
}
