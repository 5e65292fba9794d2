import type { EmailMessage } from '../events/outbox.js';
import type { EventKindOf } from '../events/kinds.js';
import type { ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { Part } from '../platform/transact.js';

/**
 * A request kind plugs into the request engine: it owns its keys, stored
 * fields, views, events and texts; the engine owns what every kind shares
 * (versioned changes, link tokens, reminders, closing and the expiry sweep).
 */

export type { RequestStatus, StoredItem, StoredRequest } from './shapes.js';
import type { RequestStatus, StoredItem, StoredRequest } from './shapes.js';

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
  /**
   * Fields a request takes when it closes (completed, cancelled, expired):
   * a retention index in place of the open one. Without it the request
   * simply leaves the open index.
   */
  onClose?(request: R, closedAt: string): Record<string, unknown>;
  /**
   * Further parts of closing a request (cancelled or expired): what its
   * outstanding items hold elsewhere (a booking kind's unused invites).
   */
  closeParts?(deps: Deps, request: R, outstanding: I[], ending: 'cancelled' | 'expired'): Promise<Part[]>;
  /** Item statuses still waiting for their actor. */
  outstanding: readonly string[];
  /** Item statuses a reminder is due for. */
  remindable: readonly string[];
  events: Record<'created' | 'completed' | 'cancelled' | 'expired', EventKindOf<F>>;
  /** The request as the agency sees it (API, events). */
  view(request: R, items: I[], now: Date): V;
  /** Whom a reminder goes to: items of one target share one reminder (a candidate with several uploads). Default: each item's own actor. */
  reminderTarget?(item: I): string;
  /** The reminder to an item's actor. */
  reminderEmail(input: { request: R; item: I; agency: string }): Omit<EmailMessage, 'id'>;
  texts: {
    noRequest: (id: number) => string;
    noItem: (id: number) => string;
    closed: (id: number, status: RequestStatus) => string;
  };
}
