import { createEndpoint, deleteEndpoint } from '../webhooks/endpoints.js';
import type { UrlPolicy } from '../webhooks/url-guard.js';
import type { Deps } from '../platform/deps.js';
import { V1_EVENT_KINDS, V1_REQUEST_KINDS } from './kinds.js';

/**
 * Portal v1's two webhook operations (decision 12): subscribe makes a portal
 * v2 endpoint limited to v1's request kinds and their item events (a v2
 * endpoint: it outlives the sunset, a migration aid); unsubscribe deletes
 * only endpoints made through v1.
 */

export async function subscribeV1(deps: Deps, clientId: string, input: { url: string; events?: string[]; name?: string }, policy: UrlPolicy) {
  return createEndpoint(
    deps,
    clientId,
    'portal-v2',
    {
      name: input.name ?? 'Portal v1 subscription',
      url: input.url,
      events: input.events ?? [...V1_EVENT_KINDS],
      request_kinds: [...V1_REQUEST_KINDS],
      created_via: 'portal-v1',
    },
    policy,
  );
}

export const unsubscribeV1 = (deps: Deps, clientId: string, id: number): Promise<void> => deleteEndpoint(deps, clientId, 'portal-v2', id, 'portal-v1');
