import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FamilyId } from '../functions/core/families.js';

/**
 * The route table: every HTTP operation of every family, once. The CDK stacks
 * build one Lambda per entry and the local server dispatches from it; nothing
 * else lists routes.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  family: FamilyId;
  method: HttpMethod;
  /** Relative to the family's base URL; `{name}` marks a path parameter. */
  path: string;
  /** Module under functions/http that exports `handler`, without extension. */
  handler: string;
  auth: 'bearer' | 'none';
  operationId: string;
  summary: string;
  /** `spec`: stated by the source specification; `project`: decided in design.md. */
  contract: 'spec' | 'project';
  /** What the handler needs beyond the table: read access to interview reports; files beside its bundle. */
  needs?: ('reports' | 'swagger-ui')[];
}

const tokenRoutes = (family: FamilyId): Route[] => [
  {
    family,
    method: 'POST',
    path: '/auth/token',
    handler: `${family}/auth-token-exchange`,
    auth: 'none',
    operationId: 'exchangeToken',
    summary: 'Exchange client credentials for a token pair',
    contract: 'project',
  },
  {
    family,
    method: 'POST',
    path: '/auth/refresh',
    handler: `${family}/auth-token-refresh`,
    auth: 'none',
    operationId: 'refreshToken',
    summary: 'Spend a refresh token for a new token pair',
    contract: 'project',
  },
  {
    family,
    method: 'GET',
    path: '/auth/token',
    handler: `${family}/auth-token-inspect`,
    auth: 'bearer',
    operationId: 'inspectToken',
    summary: 'Inspect the current access token',
    contract: 'project',
  },
  {
    family,
    method: 'DELETE',
    path: '/auth/token',
    handler: `${family}/auth-token-revoke`,
    auth: 'bearer',
    operationId: 'revokeToken',
    summary: 'Revoke the current token and its refresh token',
    contract: 'project',
  },
];

/** A builder of one family's routes; the handler module lives under functions/http/<family>/. */
const routeOf =
  (family: FamilyId) =>
  (method: HttpMethod, path: string, handler: string, operationId: string, summary: string, contract: Route['contract'], auth: Route['auth'] = 'bearer'): Route => ({
    family,
    method,
    path,
    handler: `${family}/${handler}`,
    auth,
    operationId,
    summary,
    contract,
  });

const ci = routeOf('clinical-interview');

const clinicalInterviewRoutes: Route[] = [
  ci('GET', '/interview-types', 'interview-types-list', 'listInterviewTypes', 'List active interview types', 'project'),
  ci('GET', '/timeslots', 'timeslots-list', 'listTimeslots', 'List available timeslots of an interview type', 'spec'),
  ci('POST', '/timeslots/hold', 'timeslots-hold', 'holdTimeslot', 'Hold a timeslot for 30 minutes', 'spec'),
  ci('DELETE', '/timeslots/hold/{holdHash}', 'timeslots-release', 'releaseHold', 'Release a slot hold', 'spec'),
  ci('POST', '/bookings', 'bookings-create', 'createBooking', 'Create a booking from a held slot', 'spec'),
  ci('GET', '/bookings', 'bookings-list', 'listBookings', 'List bookings', 'project'),
  ci('GET', '/bookings/{id}', 'bookings-get', 'getBooking', 'Get a single booking', 'project'),
  { ...ci('GET', '/bookings/{id}/interview-report', 'bookings-report', 'downloadInterviewReport', 'Download the interview report (PDF)', 'project'), needs: ['reports'] },
  ci('GET', '/client/balances', 'client-balances', 'getBalances', 'Credit and money balances', 'project'),
  ci('GET', '/client/wallet-transactions', 'client-wallet-transactions', 'listWalletTransactions', 'Wallet transactions, newest first', 'project'),
  ci('GET', '/client/booking-url', 'client-booking-url', 'getBookingUrl', 'Your unique booking URL', 'spec'),
  // Public pages: the link's token is the credential.
  ci('GET', '/book/{token}', 'booking-page-show', 'showBookingPage', 'Booking page: free slots and the candidate form (HTML)', 'project', 'none'),
  ci('POST', '/book/{token}', 'booking-page-submit', 'submitBookingPage', 'Booking page: book a slot, candidate pays (HTML form)', 'project', 'none'),
  ci('GET', '/pay/{token}', 'payment-page-show', 'showPaymentPage', 'Payment page (HTML)', 'project', 'none'),
  ci('POST', '/pay/{token}', 'payment-page-submit', 'submitPaymentPage', 'Payment page: pay (HTML form)', 'project', 'none'),
];

const webhookRoutes = (family: FamilyId): Route[] => {
  const of = routeOf(family);
  const route = (method: HttpMethod, path: string, name: string, operationId: string, summary: string, contract: Route['contract'] = 'project') =>
    of(method, path, `webhooks-${name}`, operationId, summary, contract);
  return [
    route('GET', '/webhooks', 'list', 'listWebhooks', 'List webhook endpoints'),
    route('POST', '/webhooks', 'create', 'createWebhook', 'Create a webhook endpoint (the secret is shown once)'),
    route('GET', '/webhooks/{id}', 'get', 'getWebhook', 'Get a webhook endpoint'),
    route('PUT', '/webhooks/{id}', 'update', 'updateWebhook', 'Update a webhook endpoint', 'spec'),
    route('DELETE', '/webhooks/{id}', 'delete', 'deleteWebhook', 'Delete a webhook endpoint'),
    route('POST', '/webhooks/{id}/rotate-secret', 'rotate-secret', 'rotateWebhookSecret', 'Rotate the signing secret (both sign for 24 hours)'),
    route('POST', '/webhooks/{id}/test', 'test', 'testWebhook', 'Send a webhook.test event'),
    route('GET', '/webhooks/{id}/logs', 'logs', 'listWebhookDeliveries', 'Delivery attempts, newest first'),
  ];
};

const pv = routeOf('portal-v2');

const portalRoutes: Route[] = [
  pv('GET', '/candidates', 'candidates-list', 'listCandidates', 'List candidates', 'project'),
  pv('POST', '/candidates', 'candidates-create', 'createCandidate', 'Create a candidate', 'project'),
  pv('GET', '/candidates/{id}', 'candidates-get', 'getCandidate', 'Get a candidate', 'project'),
  pv('GET', '/templates', 'templates-list', 'listTemplates', 'List form templates', 'spec'),
  pv('GET', '/reference-requests', 'reference-requests-list', 'listReferenceRequests', 'List reference requests', 'spec'),
  pv('POST', '/reference-requests', 'reference-requests-create', 'createReferenceRequest', 'Create a reference request', 'spec'),
  pv('GET', '/reference-requests/{id}', 'reference-requests-get', 'getReferenceRequest', 'Get a reference request', 'spec'),
  pv('POST', '/reference-requests/{id}/cancel', 'reference-requests-cancel', 'cancelReferenceRequest', 'Cancel a reference request', 'spec'),
  pv('POST', '/reference-requests/{id}/referees', 'reference-requests-add-referee', 'addReferee', 'Add a referee to a request', 'spec'),
  pv('POST', '/reference-requests/{id}/reminders', 'reference-requests-reminders', 'sendReminders', 'Remind referees who have not answered', 'spec'),
  pv('GET', '/references/{id}', 'references-get', 'getReference', 'Get reference detail', 'spec'),
  { ...pv('GET', '/references/{id}/pdf', 'references-pdf', 'downloadReferencePdf', 'Download a completed reference as PDF', 'spec') },
  // Public pages: the link's token is the credential.
  pv('GET', '/reference-form/{token}', 'reference-form-show', 'showReferenceForm', 'Referee form (HTML)', 'project', 'none'),
  pv('POST', '/reference-form/{token}', 'reference-form-submit', 'submitReferenceForm', 'Referee form: submit or decline (HTML form)', 'project', 'none'),
  pv('GET', '/reference-submit/{token}', 'reference-submit-show', 'showRefereeSubmission', 'Candidate page to name referees (HTML)', 'project', 'none'),
  pv('POST', '/reference-submit/{token}', 'reference-submit-submit', 'submitReferees', 'Candidate page: send referees (HTML form)', 'project', 'none'),
];

const docsRoutes = (family: FamilyId): Route[] => {
  const of = routeOf(family);
  return [
    of('GET', '/openapi.json', 'openapi', 'getOpenApi', 'This OpenAPI document', 'project', 'none'),
    of('GET', '/docs', 'docs-page', 'showDocs', 'Documentation page', 'project', 'none'),
    { ...of('GET', '/docs/{asset}', 'docs-asset', 'getDocsAsset', 'Documentation page assets', 'project', 'none'), needs: ['swagger-ui'] },
  ];
};

export const ROUTES: readonly Route[] = [
  ...docsRoutes('clinical-interview'),
  ...docsRoutes('portal-v2'),
  ...tokenRoutes('clinical-interview'),
  ...clinicalInterviewRoutes,
  ...webhookRoutes('clinical-interview'),
  ...tokenRoutes('portal-v2'),
  ...portalRoutes,
  ...webhookRoutes('portal-v2'),
];

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const handlerEntry = (route: Pick<Route, 'handler'>): string =>
  join(PROJECT_ROOT, 'functions', 'http', `${route.handler}.ts`);

export const routesOf = (family: FamilyId): Route[] => ROUTES.filter((r) => r.family === family);

/** API Gateway's route key, e.g. `GET /bookings/{id}`. */
export const routeKey = (route: Route): string => `${route.method} ${route.path}`;
