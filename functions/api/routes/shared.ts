import { RefreshRequest, TokenRequest } from '../schemas/auth.js';
import { PageQuery } from '../schemas/fields.js';
import { webhookSchemas } from '../schemas/webhooks.js';
import { sharedOperations } from './operation.js';

/** Operations every family offers, one handler file each under functions/http/shared. */

export const tokenOperations = sharedOperations({
  exchangeToken: { method: 'POST', path: '/auth/token', handler: 'shared/auth-token-exchange', auth: 'none', contract: 'project', body: TokenRequest },
  refreshToken: { method: 'POST', path: '/auth/refresh', handler: 'shared/auth-token-refresh', auth: 'none', contract: 'project', body: RefreshRequest },
  inspectToken: { method: 'GET', path: '/auth/token', handler: 'shared/auth-token-inspect', auth: 'bearer', contract: 'project' },
  revokeToken: { method: 'DELETE', path: '/auth/token', handler: 'shared/auth-token-revoke', auth: 'bearer', contract: 'project' },
});

const webhook = <P extends string>(path: P, name: string) => ({ path, handler: `shared/webhooks-${name}`, auth: 'bearer', contract: 'project' }) as const;

export const webhookOperations = sharedOperations({
  listWebhooks: { ...webhook('/webhooks', 'list'), method: 'GET', query: PageQuery },
  createWebhook: { ...webhook('/webhooks', 'create'), method: 'POST', idempotent: true, body: (family) => webhookSchemas(family).create },
  getWebhook: { ...webhook('/webhooks/{id}', 'get'), method: 'GET' },
  updateWebhook: { ...webhook('/webhooks/{id}', 'update'), method: 'PUT', contract: 'spec', body: (family) => webhookSchemas(family).update },
  deleteWebhook: { ...webhook('/webhooks/{id}', 'delete'), method: 'DELETE' },
  rotateWebhookSecret: { ...webhook('/webhooks/{id}/rotate-secret', 'rotate-secret'), method: 'POST' },
  testWebhook: { ...webhook('/webhooks/{id}/test', 'test'), method: 'POST' },
  replayWebhook: {
    ...webhook('/webhooks/{id}/replay', 'replay'),
    method: 'POST',
    body: (family) => webhookSchemas(family).replay,
    needs: ['deliveries-queue'],
  },
  listWebhookDeliveries: { ...webhook('/webhooks/{id}/logs', 'logs'), method: 'GET', query: (family) => webhookSchemas(family).logs },
});

/** The agency's own account, in the families whose spec says `clientOperations`. */
export const clientOperations = sharedOperations({
  getBalances: { method: 'GET', path: '/client/balances', handler: 'shared/client-balances', auth: 'bearer', contract: 'project' },
  listWalletTransactions: { method: 'GET', path: '/client/wallet-transactions', handler: 'shared/client-wallet-transactions', auth: 'bearer', contract: 'project', query: PageQuery },
  getBookingUrl: { method: 'GET', path: '/client/booking-url', handler: 'shared/client-booking-url', auth: 'bearer', contract: 'spec' },
});

export const docsOperations = sharedOperations({
  getOpenApi: { method: 'GET', path: '/openapi.json', handler: 'shared/openapi', auth: 'none', contract: 'project', servedAfterSunset: true },
  showDocs: { method: 'GET', path: '/docs', handler: 'shared/docs-page', auth: 'none', contract: 'project', servedAfterSunset: true },
  getDocsAsset: { method: 'GET', path: '/docs/{asset}', handler: 'shared/docs-asset', auth: 'none', contract: 'project', needs: ['swagger-ui'], servedAfterSunset: true },
});
