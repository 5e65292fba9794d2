import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { allOf, deleteItem, itemAbsent, itemExists, part, putItem, transact, updateItem, type Condition } from '../platform/transact.js';
import { queryAll, queryPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { clientKeys } from '../access/clients.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { eventPut } from '../events/outbox.js';
import type { WebhookFamilyId } from '../events/kinds.js';
import { newWebhookSecret, secretPrefix } from './signing.js';
import { formatWithOffset } from '../platform/time.js';
import { vetWebhookUrl, type UrlPolicy } from './url-guard.js';

/**
 * Webhook endpoints: where a client wants a family's events delivered, signed
 * with the endpoint's secret. The full secret is shown only when it is made
 * (create, rotate); after a rotation the old one keeps signing beside the new
 * one for 24 hours.
 */

import { DEFAULT_TIMEOUT_SECONDS } from './delivery-timeout.js';

export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

export interface EndpointItem {
  id: number;
  client_id: string;
  family: FamilyId;
  name: string;
  url: string;
  events: string[];
  secret: string;
  previous_secret?: string;
  previous_secret_expires_at?: string;
  is_active: boolean;
  timeout_seconds: number;
  last_delivered_at: string | null;
  last_response_code: number | null;
  consecutive_failures: number;
  /** How long the latest attempt took (milliseconds): one longer than the fast lane's budget keeps the endpoint in the slow lane. */
  last_duration_ms?: number;
  /** When the current run of failures began; the endpoint is switched off when it has lasted too long. */
  failing_since?: string;
  disabled_reason?: string;
  /** Only item events (`request_item.*`) of these request kinds: a portal v1 subscription (decision 12). */
  request_kinds?: string[];
  /** The family whose operations made it (portal v1's subscribe); only they delete it. */
  created_via?: FamilyId;
  created_at: string;
  updated_at: string;
}

const CLIENT = TABLE_KEYS.client;
const LOG = TABLE_KEYS.webhookLog;
/** An attempt's log entry is kept 30 days (TTL). */
export const LOG_RETENTION_SECONDS = 30 * 86_400;
export const webhookKeys = {
  endpoint: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.webhook, family, padId(id)) }),
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.webhook, family),
  /** A deleted endpoint's id, kept while its logs are (data rights read them). */
  gone: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.webhookGone, family, padId(id)) }),
  gonePrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.webhookGone, family),
  /** Endpoints are counted in the transaction that adds or removes one. */
  count: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.endpointCount, family) }),
  /** Endpoint ids are per family, so the log's partition names the family too. */
  logPartition: (clientId: string, family: FamilyId, endpointId: number) => key(LOG.pk, family, clientId, endpointId),
  logEntry: (clientId: string, family: FamilyId, endpointId: number, attemptedAt: string, eventId: string, attempt: number) => ({
    pk: key(LOG.pk, family, clientId, endpointId),
    sk: key(LOG.sk.attempt, attemptedAt, eventId, String(attempt).padStart(2, '0')),
  }),
};

/** The endpoint as the specification shows it: the secret only as its prefix. */
export function toEndpointView(e: EndpointItem, timeZone: string) {
  return {
    id: e.id,
    name: e.name,
    url: e.url,
    events: e.events,
    secret_prefix: secretPrefix(e.secret),
    is_active: e.is_active,
    timeout_seconds: e.timeout_seconds,
    last_delivered_at: e.last_delivered_at && formatWithOffset(e.last_delivered_at, timeZone),
    last_response_code: e.last_response_code,
    consecutive_failures: e.consecutive_failures,
    created_at: formatWithOffset(e.created_at, timeZone),
  };
}

/** Secrets that sign now: the current one, and the previous one during its overlap. */
export function signingSecrets(e: EndpointItem, now: Date): string[] {
  const previousValid = e.previous_secret && e.previous_secret_expires_at && e.previous_secret_expires_at > now.toISOString();
  return previousValid ? [e.secret, e.previous_secret!] : [e.secret];
}

export interface NewEndpoint {
  name: string;
  url: string;
  events: string[];
  timeout_seconds?: number;
  request_kinds?: string[];
  created_via?: FamilyId;
}

/** Endpoints per client and family: each one multiplies every event's deliveries. */
export const MAX_ENDPOINTS = 20;

/** Endpoints are counted in the transaction that adds or removes one, so concurrent creates cannot pass the cap. */
const endpointCount = (deps: Deps, clientId: string, family: FamilyId, change: 1 | -1) =>
  updateItem(
    deps,
    webhookKeys.count(clientId, family),
    { add: { endpoint_count: change }, set: { entity: 'webhook-endpoint-count' } },
    change > 0 ? belowEndpointCap : undefined,
  );

/** Another endpoint fits under the cap. */
const belowEndpointCap: Condition = { expression: 'attribute_not_exists(endpoint_count) OR endpoint_count < :max', values: { ':max': MAX_ENDPOINTS } };

export async function createEndpoint(deps: Deps, clientId: string, family: FamilyId, input: NewEndpoint, policy: UrlPolicy) {
  await vetWebhookUrl(input.url, policy);
  const id = await nextId(deps, family, 'webhook');
  const now = deps.clock().toISOString();
  const item: EndpointItem = {
    id,
    client_id: clientId,
    family,
    name: input.name,
    url: input.url,
    events: [...new Set(input.events)],
    secret: newWebhookSecret(),
    is_active: true,
    timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    ...(input.request_kinds ? { request_kinds: input.request_kinds } : {}),
    ...(input.created_via ? { created_via: input.created_via } : {}),
    last_delivered_at: null,
    last_response_code: null,
    consecutive_failures: 0,
    created_at: now,
    updated_at: now,
  };
  await transact(
    deps,
    [
      part('count', endpointCount(deps, clientId, family, 1)),
      part('endpoint', putItem(deps, { ...webhookKeys.endpoint(clientId, family, id), entity: 'webhook-endpoint', ...item }, itemAbsent)),
    ],
    {
      count: new DomainError('limit-reached', `At most ${MAX_ENDPOINTS} webhook endpoints per client in this API; delete one to add another`, {
        limit: MAX_ENDPOINTS,
      }),
    },
  );
  return { ...toEndpointView(item, deps.config.serviceTimeZone), secret: item.secret };
}

export async function getEndpointItem(deps: Deps, clientId: string, family: FamilyId, id: number): Promise<EndpointItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: webhookKeys.endpoint(clientId, family, id), ConsistentRead: true }));
  return Item as EndpointItem | undefined;
}

export async function requireEndpoint(deps: Deps, clientId: string, family: FamilyId, id: number): Promise<EndpointItem> {
  const item = await getEndpointItem(deps, clientId, family, id);
  if (!item) throw new DomainError('not-found', `No webhook endpoint ${id}`);
  return item;
}

export async function getEndpoint(deps: Deps, clientId: string, family: FamilyId, id: number) {
  return toEndpointView(await requireEndpoint(deps, clientId, family, id), deps.config.serviceTimeZone);
}

/** One page of the client's endpoints in a family, oldest first. */
export const endpointPage = (deps: Deps, clientId: string, family: FamilyId, page: { limit: number; cursor?: string }) =>
  queryPage(deps, { pk: webhookKeys.endpoint(clientId, family, 0).pk, prefix: webhookKeys.familyPrefix(family), order: 'oldest', ...page }, (item) =>
    toEndpointView(item as unknown as EndpointItem, deps.config.serviceTimeZone),
  );

/** The client's endpoints in a family, by id: at most MAX_ENDPOINTS. */
export async function listEndpoints(deps: Deps, clientId: string, family: FamilyId): Promise<EndpointItem[]> {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': webhookKeys.familyPrefix(family) },
    ConsistentRead: true,
  });
  return items as unknown as EndpointItem[];
}

export interface EndpointChanges {
  events: string[];
  is_active: boolean;
  name?: string;
  url?: string;
  timeout_seconds?: number;
}

/** PUT: the subscription and the active flag, and optionally name, url and time-out. */
export async function updateEndpoint(deps: Deps, clientId: string, family: FamilyId, id: number, changes: EndpointChanges, policy: UrlPolicy) {
  const current = await requireEndpoint(deps, clientId, family, id);
  if (changes.url !== undefined) await vetWebhookUrl(changes.url, policy);
  const now = deps.clock().toISOString();
  const updated: EndpointItem = {
    ...current,
    events: [...new Set(changes.events)],
    is_active: changes.is_active,
    name: changes.name ?? current.name,
    url: changes.url ?? current.url,
    timeout_seconds: changes.timeout_seconds ?? current.timeout_seconds,
    updated_at: now,
  };
  // Switching an endpoint back on starts its failure count afresh.
  const reactivated = changes.is_active && !current.is_active;
  if (reactivated) {
    updated.consecutive_failures = 0;
    delete updated.failing_since;
    delete updated.disabled_reason;
  }
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: webhookKeys.endpoint(clientId, family, id),
        UpdateExpression:
          'SET events = :events, is_active = :active, #name = :name, #url = :url, timeout_seconds = :timeout, updated_at = :now' +
          (reactivated ? ', consecutive_failures = :zero REMOVE failing_since, disabled_reason' : ''),
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#name': 'name', '#url': 'url' },
        ExpressionAttributeValues: {
          ':events': updated.events,
          ':active': updated.is_active,
          ':name': updated.name,
          ':url': updated.url,
          ':timeout': updated.timeout_seconds,
          ':now': now,
          ...(reactivated ? { ':zero': 0 } : {}),
        },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new DomainError('not-found', `No webhook endpoint ${id}`);
    throw err;
  }
  return toEndpointView(updated, deps.config.serviceTimeZone);
}

/** Deletes an endpoint; `via`: only one made through that family's operations (else not-found). */
export async function deleteEndpoint(deps: Deps, clientId: string, family: FamilyId, id: number, via?: FamilyId): Promise<void> {
  const made: Condition | undefined = via ? { expression: 'created_via = :via', values: { ':via': via } } : undefined;
  const now = deps.clock();
  await transact(
    deps,
    [
      part('endpoint', deleteItem(deps, webhookKeys.endpoint(clientId, family, id), made ? allOf(itemExists, made) : itemExists)),
      part('count', endpointCount(deps, clientId, family, -1)),
      // Its logs outlive it by up to 30 days (an attempt in flight may still write one): the id stays findable as long.
      part(
        'gone',
        putItem(deps, {
          ...webhookKeys.gone(clientId, family, id),
          entity: 'webhook-endpoint-gone',
          id,
          client_id: clientId,
          family,
          deleted_at: now.toISOString(),
          ttl: toEpochSeconds(addSeconds(now, LOG_RETENTION_SECONDS + 86_400)),
        }),
      ),
    ],
    {
      endpoint: new DomainError('not-found', `No webhook endpoint ${id}`),
    },
  );
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export async function rotateSecret(deps: Deps, clientId: string, family: FamilyId, id: number) {
  const current = await requireEndpoint(deps, clientId, family, id);
  const now = deps.clock();
  const secret = newWebhookSecret();
  const updated: EndpointItem = {
    ...current,
    secret,
    previous_secret: current.secret,
    previous_secret_expires_at: addSeconds(now, ROTATION_OVERLAP_SECONDS).toISOString(),
    updated_at: now.toISOString(),
  };
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: webhookKeys.endpoint(clientId, family, id),
        UpdateExpression: 'SET secret = :new, previous_secret = :old, previous_secret_expires_at = :until, updated_at = :now',
        // Two rotations at once must not both keep the same "previous" secret.
        ConditionExpression: 'secret = :old',
        ExpressionAttributeValues: { ':new': secret, ':old': current.secret, ':until': updated.previous_secret_expires_at, ':now': updated.updated_at },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new DomainError('invalid-state', 'The secret was rotated meanwhile; rotate again if you need to');
    throw err;
  }
  return { ...toEndpointView(updated, deps.config.serviceTimeZone), secret };
}

/** Queues a `webhook.test` event for this endpoint alone; `status` says it is queued, not yet delivered. */
export async function sendTestEvent(deps: Deps, clientId: string, family: FamilyId, id: number): Promise<{ event_id: string; status: 'queued' }> {
  const endpoint = await requireEndpoint(deps, clientId, family, id);
  const put = eventPut(deps, {
    type: 'webhook.test',
    client_id: clientId,
    // Webhook operations are routed only in families with webhooks (FamilySpec.webhooks).
    family: family as WebhookFamilyId,
    endpoint_id: endpoint.id,
    data: { endpoint_id: endpoint.id, message: 'This is a test event from the Agency API.' },
  });
  await transact(deps, [part('event', put)]);
  return { event_id: put.eventId, status: 'queued' };
}
