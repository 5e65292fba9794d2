import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import type { FamilyEvent } from '../events/kinds.js';
import { eventPut } from '../events/outbox.js';
import { queryAll, queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import type { Page } from '../platform/pagination.js';
import { itemAbsent, part, putItem, updateItem, type Condition, type Part } from '../platform/transact.js';
import type { RequestKind, RequestStatus, StoredItem, StoredRequest } from './kind.js';
import { effectiveStatus } from './status.js';

/** Requests and their items in the table: reads, and the transaction parts every change is made of. */

export type Loaded<R, I> = { request: R; items: I[] };

/** The request still has the version this change read: a concurrent change makes it fail and retry. */
export const versionIs = (version: number): Condition => ({ expression: '#version = :seen', names: { '#version': 'version' }, values: { ':seen': version } });

/** The item has this status. */
export const itemStatusIs = (status: string): Condition => ({ expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': status } });

/** The item is still waiting for its actor, and its time is not up: a second answer (or a race with one) changes nothing. */
export function itemAnswerable(outstanding: readonly string[], now: Date): Condition {
  const values = Object.fromEntries(outstanding.map((s, i) => [`:open${i}`, s]));
  return {
    expression: `#status IN (${Object.keys(values).join(', ')}) AND #expires > :now`,
    names: { '#status': 'status', '#expires': 'expires_at' },
    values: { ...values, ':now': now.toISOString() },
  };
}

/**
 * A request and its items, read consistently. The request comes first, never
 * beside: every change bumps its version, so items read after it are at
 * least as new, and a change that commits in between makes the caller's
 * versioned write fail and retry.
 */
export async function loadRequest<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  id: number,
): Promise<Loaded<R, I> | undefined> {
  const { Item: request } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: kind.keys.request(clientId, id), ConsistentRead: true }));
  if (!request) return undefined;
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': kind.keys.itemsOf(id) },
    ConsistentRead: true,
  });
  return { request: request as R, items: items as unknown as I[] };
}

export async function requireRequest<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  id: number,
): Promise<Loaded<R, I>> {
  const loaded = await loadRequest(deps, kind, clientId, id);
  if (!loaded) throw new DomainError('not-found', kind.texts.noRequest(id));
  return loaded;
}

/** Refuses a change to a request that is cancelled or expired (by the clock). */
export function requireOpen<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(kind: RequestKind<F, R, I, V>, request: R, now: Date): void {
  const status = effectiveStatus(request, now);
  if (status === 'cancelled' || status === 'expired') throw new DomainError('invalid-state', kind.texts.closed(request.id, status));
}

/** An item of the caller's, with its request. Another client's has no pointer here: not-found. */
export async function findItem<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  itemId: number,
): Promise<{ request: R; item: I }> {
  const { Item: pointer } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: kind.keys.itemPointer(clientId, itemId), ConsistentRead: true }));
  if (!pointer) throw new DomainError('not-found', kind.texts.noItem(itemId));
  const { request, items } = await requireRequest(deps, kind, clientId, Number(pointer[kind.fields.requestId]));
  const item = items.find((i) => i.id === itemId);
  if (!item) throw new DomainError('not-found', kind.texts.noItem(itemId));
  return { request, item };
}

/** The new request, indexed as open until it closes. */
export function newRequestPart<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  request: R,
): Part {
  const keys = { ...kind.keys.request(request.client_id, request.id), ...kind.keys.open(request.expires_at, request.client_id, request.id) };
  return part('request', putItem(deps, { ...keys, entity: kind.entities.request, ...(request as StoredRequest) }, itemAbsent));
}

/**
 * The request's update for a change, conditioned on the version read.
 * `close` takes it out of the open index (cancelled, expired). Returns the
 * request as it will be, and the part.
 */
export function requestChange<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  before: R,
  changes: Partial<R>,
  close = false,
): { after: R; part: Part } {
  const at = deps.clock().toISOString();
  const closing = close ? kind.onClose?.({ ...before, ...changes }, at) : undefined;
  const fields = { ...changes, ...closing, updated_at: at, version: before.version + 1 };
  // A kind with a retention index moves the request into it; otherwise it leaves the open index.
  const remove = close && !closing?.gsi1pk ? ['gsi1pk', 'gsi1sk'] : undefined;
  return {
    after: { ...before, ...fields },
    part: part('request', updateItem(deps, kind.keys.request(before.client_id, before.id), { set: fields, remove }, versionIs(before.version))),
  };
}

/** A new item and its pointer (the client's item by id). Part names carry the item id. */
export function newItemParts<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  request: R,
  item: I,
): Part[] {
  return [
    part(
      `item ${item.id}`,
      putItem(deps, { ...kind.keys.item(request.client_id, request.id, item.id), entity: kind.entities.item, ...(item as StoredItem) }, itemAbsent),
    ),
    part(
      `pointer ${item.id}`,
      putItem(deps, { ...kind.keys.itemPointer(request.client_id, item.id), entity: kind.entities.pointer, [kind.fields.requestId]: request.id }),
    ),
  ];
}

/** An item's update, under a condition of the item's own. */
export function itemChange<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  request: R,
  item: I,
  set: Partial<I>,
  when?: Condition,
): Part {
  return part(`item ${item.id}`, updateItem(deps, kind.keys.item(request.client_id, request.id, item.id), { set }, when));
}

/** The kind's request event, with the request view as its data. */
export function requestEvent<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  event: keyof RequestKind<F, R, I, V>['events'],
  request: R,
  items: I[],
): Part {
  const type = { family: kind.family, type: kind.events[event] } as FamilyEvent;
  return part(`event ${String(event)}`, eventPut(deps, { ...type, client_id: request.client_id, data: kind.view(request, items, deps.clock()) }));
}

export interface RequestFilter {
  status?: RequestStatus;
  candidate_id?: number;
  limit: number;
  cursor?: string;
}

/** The client's requests of a kind, newest first, as views. */
export async function listRequests<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  filter: RequestFilter,
): Promise<Page<V>> {
  const now = deps.clock();
  const byCandidate: Condition | undefined =
    filter.candidate_id !== undefined ? { expression: 'candidate_id = :candidate', values: { ':candidate': filter.candidate_id } } : undefined;
  const query = {
    pk: clientKeys.partition(clientId),
    prefix: kind.keys.requestPrefix,
    limit: filter.limit,
    cursor: filter.cursor,
    filter: byCandidate,
    order: 'newest' as const,
  };
  return queryFilteredPage(deps, query, async (hit) => {
    const request = hit as unknown as R;
    if (filter.status && effectiveStatus(request, now) !== filter.status) return undefined;
    const loaded = await loadRequest(deps, kind, clientId, request.id);
    return loaded && kind.view(loaded.request, loaded.items, now);
  });
}
