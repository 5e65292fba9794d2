import { RefreshRequest, TokenRequest } from '../schemas/auth.js';
import { PageQuery } from '../schemas/fields.js';
import { webhookSchemas } from '../schemas/webhooks.js';
import type { Operation } from './operation.js';

/**
 * Operations every family offers (or every family with a capability), one
 * handler file each under functions/http/shared; the family comes with the
 * request. Each is its own export of plain data, as a family's are, so that a
 * function's bundle carries its own operation; the groups below say which
 * families offer which (./index.ts). `actingUser` holds in the families with
 * team users only (./acting-user.ts): webhooks need `webhooks:manage`, a
 * token's own operations any active team user.
 *
 * `contract` follows the specification's inventory: the four token operations
 * of each family with its own tokens, the client operations ("most families
 * also have client operations": booking URL, balances, wallet transactions),
 * and the webhook endpoint operations (list, create, get, update, delete,
 * rotate signing secret, send test event; portal version 2 names view call
 * logs and no get) are `spec`; the booking URL's rotation, replay and the
 * documents are the project's.
 */

export const exchangeToken = {
  operationId: 'exchangeToken',
  method: 'POST',
  path: '/auth/token',
  handler: 'shared/auth-token-exchange',
  auth: 'none',
  contract: 'spec',
  body: TokenRequest,
  extraFields: 'ignored',
} as const satisfies Operation;
export const refreshToken = {
  operationId: 'refreshToken',
  method: 'POST',
  path: '/auth/refresh',
  handler: 'shared/auth-token-refresh',
  auth: 'none',
  contract: 'spec',
  body: RefreshRequest,
  extraFields: 'ignored',
} as const satisfies Operation;
export const inspectToken = {
  operationId: 'inspectToken',
  method: 'GET',
  path: '/auth/token',
  handler: 'shared/auth-token-inspect',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
export const revokeToken = {
  operationId: 'revokeToken',
  method: 'DELETE',
  path: '/auth/token',
  handler: 'shared/auth-token-revoke',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;

export const listWebhooks = {
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/webhooks',
  handler: 'shared/webhooks-list',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const createWebhook = {
  operationId: 'createWebhook',
  method: 'POST',
  path: '/webhooks',
  handler: 'shared/webhooks-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: (family) => webhookSchemas(family).create,
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const getWebhook = {
  operationId: 'getWebhook',
  method: 'GET',
  path: '/webhooks/{id}',
  handler: 'shared/webhooks-get',
  auth: 'bearer',
  contract: 'project',
  specIn: ['clinical-interview', 'practical-training', 'virtual-life-support', 'registration-monitoring'],
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const updateWebhook = {
  operationId: 'updateWebhook',
  method: 'PUT',
  path: '/webhooks/{id}',
  handler: 'shared/webhooks-update',
  auth: 'bearer',
  contract: 'spec',
  body: (family) => webhookSchemas(family).update,
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const deleteWebhook = {
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/{id}',
  handler: 'shared/webhooks-delete',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const rotateWebhookSecret = {
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/{id}/rotate-secret',
  handler: 'shared/webhooks-rotate-secret',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const testWebhook = {
  operationId: 'testWebhook',
  method: 'POST',
  path: '/webhooks/{id}/test',
  handler: 'shared/webhooks-test',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const replayWebhook = {
  operationId: 'replayWebhook',
  method: 'POST',
  path: '/webhooks/{id}/replay',
  handler: 'shared/webhooks-replay',
  auth: 'bearer',
  contract: 'project',
  body: (family) => webhookSchemas(family).replay,
  actingUser: 'webhooks:manage',
} as const satisfies Operation;
export const listWebhookDeliveries = {
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhooks/{id}/logs',
  handler: 'shared/webhooks-logs',
  auth: 'bearer',
  contract: 'project',
  specIn: ['portal-v2'],
  query: (family) => webhookSchemas(family).logs,
  actingUser: 'webhooks:manage',
} as const satisfies Operation;

/** The agency's own account, in the families whose spec says `clientOperations`. */
export const getBalances = {
  operationId: 'getBalances',
  method: 'GET',
  path: '/client/balances',
  handler: 'shared/client-balances',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const listWalletTransactions = {
  operationId: 'listWalletTransactions',
  method: 'GET',
  path: '/client/wallet-transactions',
  handler: 'shared/client-wallet-transactions',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
} as const satisfies Operation;
export const getBookingUrl = {
  operationId: 'getBookingUrl',
  method: 'GET',
  path: '/client/booking-url',
  handler: 'shared/client-booking-url',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const rotateBookingUrl = {
  operationId: 'rotateBookingUrl',
  method: 'POST',
  path: '/client/booking-url/rotate',
  handler: 'shared/client-booking-url-rotate',
  auth: 'bearer',
  contract: 'project',
} as const satisfies Operation;

export const getOpenApi = {
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'shared/openapi',
  auth: 'none',
  contract: 'project',
  servedAfterSunset: true,
} as const satisfies Operation;
export const showDocs = {
  operationId: 'showDocs',
  method: 'GET',
  path: '/docs',
  handler: 'shared/docs-page',
  auth: 'none',
  contract: 'project',
  servedAfterSunset: true,
} as const satisfies Operation;
export const getDocsAsset = {
  operationId: 'getDocsAsset',
  method: 'GET',
  path: '/docs/{asset}',
  handler: 'shared/docs-asset',
  auth: 'none',
  contract: 'project',
  needs: ['swagger-ui'],
  servedAfterSunset: true,
} as const satisfies Operation;

/** Which families offer which: every family the documents, a family with its own tokens the token operations, and so on (./index.ts). */
export const tokenOperations = { exchangeToken, refreshToken, inspectToken, revokeToken };
export const webhookOperations = {
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  replayWebhook,
  listWebhookDeliveries,
};
export const clientOperations = { getBalances, listWalletTransactions, getBookingUrl, rotateBookingUrl };
export const docsOperations = { getOpenApi, showDocs, getDocsAsset };
