import { isDomainError } from '../../core/errors.js';
import type { FamilyId } from '../../core/families.js';
import { policyFromEnv } from '../../core/url-guard.js';
import { deliveryLog } from '../../core/webhook-delivery.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  sendTestEvent,
  toEndpointView,
  updateEndpoint,
} from '../../core/webhooks.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { validationProblem } from '../../middleware/problems.js';
import { idParam } from './fields.js';
import { webhookSchemas } from './webhook-schemas.js';

/**
 * The webhook endpoint operations every family with events offers (design
 * section 7), bound to a family by one-line handler files. The portal family
 * wraps single resources in its `data`/`message` envelope; the clinical
 * interview family returns them bare.
 */

const present = (family: FamilyId, resource: unknown, message: string) => (family === 'portal-v2' ? { data: resource, message } : resource);

/** A refused URL is a field error of `url`. */
async function vettingUrl<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isDomainError(err) && err.code === 'webhook-url-refused') throw validationProblem([{ pointer: '/url', detail: err.message }]);
    throw err;
  }
}

const endpointId = (params: Record<string, string>) => idParam(params, 'webhook endpoint');

export const listWebhooks = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller }) => ({
    status: 200,
    body: { data: (await listEndpoints(deps, caller.clientId, family)).map((e) => toEndpointView(e, deps.config.serviceTimeZone)), next_cursor: null },
  }));

export const createWebhook = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer', body: webhookSchemas(family).create, idempotent: true }, async ({ deps, caller, body }) => ({
    status: 201,
    body: present(family, await vettingUrl(createEndpoint(deps, caller.clientId, family, body, policyFromEnv())), 'Webhook endpoint created; store the secret now, it is not shown again'),
  }));

export const getWebhook = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller, params }) => ({
    status: 200,
    body: present(family, await getEndpoint(deps, caller.clientId, family, endpointId(params)), 'Webhook endpoint'),
  }));

export const updateWebhook = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer', body: webhookSchemas(family).update }, async ({ deps, caller, params, body }) => ({
    status: 200,
    body: present(family, await vettingUrl(updateEndpoint(deps, caller.clientId, family, endpointId(params), body, policyFromEnv())), 'Webhook endpoint updated'),
  }));

export const deleteWebhook = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller, params }) => {
    await deleteEndpoint(deps, caller.clientId, family, endpointId(params));
    return { status: 204 };
  });

export const rotateWebhookSecret = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller, params }) => ({
    status: 200,
    body: present(family, await rotateSecret(deps, caller.clientId, family, endpointId(params)), 'Secret rotated; the previous secret also signs for 24 hours'),
  }));

export const testWebhook = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer' }, async ({ deps, caller, params }) => ({
    status: 202,
    body: present(family, await sendTestEvent(deps, caller.clientId, family, endpointId(params)), 'Test event queued'),
  }));

export const webhookLogs = (family: FamilyId) =>
  httpHandler({ family, auth: 'bearer', query: webhookSchemas(family).logs }, async ({ deps, caller, params, query }) => {
    const id = endpointId(params);
    await getEndpoint(deps, caller.clientId, family, id); // another client's endpoint is not-found
    return { status: 200, body: await deliveryLog(deps, caller.clientId, family, id, query) };
  });
