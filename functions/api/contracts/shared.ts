import type { clientOperations, docsOperations, tokenOperations, webhookOperations } from '../routes/shared.js';
import { html, json, none, type OperationContract } from './contract.js';
import { eventKindsOf } from '../../core/events/kinds.js';
import type { FamilyId } from '../../core/platform/families.js';
import * as R from './responses.js';

type Ids = keyof typeof tokenOperations | keyof typeof webhookOperations | keyof typeof clientOperations | keyof typeof docsOperations;

const endpointId = { id: 3 };
const credentials = { client_id: 'northwind-care', client_secret: 'cs_live_5Vd9qK2xT7wLmR3nB8cY4hJ6' };

/** Contracts of the operations every family offers. */
export const SHARED_CONTRACTS: Record<Ids, OperationContract> = {
  exchangeToken: {
    summary: 'Exchange client credentials for a token pair',
    description:
      'Trades the client id and secret the agency was given for an access token (one hour; send it as `Authorization: Bearer …`) and a refresh token (30 days). Tokens work only in the API family that issued them.',
    tag: 'Authentication',
    request: { body: credentials, invalid: { client_secret: '' } },
    responses: {
      200: json('A token pair', R.TokenPair),
      401: json('Unknown client or wrong secret (the same answer for both)', R.Problem, undefined, {
        example: { code: 'invalid-credentials', detail: 'The client id or secret is not valid' },
      }),
    },
  },
  refreshToken: {
    summary: 'Spend a refresh token for a new token pair',
    description: 'A refresh token can be spent once; presenting a spent one again revokes every token of its grant, as a stolen copy would be.',
    tag: 'Authentication',
    request: { body: { refresh_token: 'KJN83iA1FNW2OjLmZArg7-qltLslNHY7zA60MozVBfs' }, invalid: { refresh_token: '' } },
    responses: {
      200: json('A new token pair; the refresh token presented is spent', R.TokenPair),
      401: json('Unknown, expired or revoked refresh token; a spent one revokes its whole grant', R.Problem, undefined, {
        example: { code: 'invalid-token', detail: 'The token is missing, unknown, expired or revoked' },
      }),
    },
  },
  inspectToken: {
    summary: 'Inspect the current access token',
    description: 'Whose token this is, for which family, and when it expires.',
    tag: 'Authentication',
    responses: { 200: json('The current token', R.TokenInfo) },
  },
  revokeToken: {
    summary: 'Revoke the current token and its refresh token',
    description: 'Ends the grant: the access token and its refresh token stop working at once.',
    tag: 'Authentication',
    responses: { 204: none('Revoked: the access token and its refresh token stop working') },
  },

  listWebhooks: {
    summary: 'List webhook endpoints',
    description: "This client's webhook endpoints in this API family.",
    tag: 'Webhooks',
    request: { query: { limit: 25 }, invalid: { limit: '0' } },
    responses: { 200: json('Webhook endpoints', R.WebhookEndpoint, 'page') },
  },
  createWebhook: {
    summary: 'Create a webhook endpoint (the secret is shown once)',
    description:
      'Subscribes an https URL to event kinds of this family. Each delivery is signed per Standard Webhooks with the secret answered here, which is not shown again; failed deliveries are retried with backoff.',
    tag: 'Webhooks',
    request: {
      body: (family: FamilyId) => ({
        name: 'Compliance system',
        url: 'https://hooks.northwind-care.example/agency-api',
        events: [eventKindsOf(family)[0]],
        timeout_seconds: 10,
      }),
      invalid: { events: [] },
    },
    refusals: [{ code: 'limit-reached', detail: 'At most 20 webhook endpoints per client in this API; delete one to add another', extensions: { limit: 20 } }],
    responses: {
      201: json('The endpoint, with its secret (shown only now)', R.WebhookEndpointWithSecret, 'single', {
        message: 'Webhook endpoint created; store the secret now, it is not shown again',
      }),
    },
  },
  getWebhook: {
    summary: 'Get a webhook endpoint',
    description: 'One endpoint, with the outcome of its last delivery.',
    tag: 'Webhooks',
    request: { params: endpointId },
    responses: { 200: json('The endpoint', R.WebhookEndpoint, 'single', { message: 'Webhook endpoint' }) },
  },
  updateWebhook: {
    summary: 'Update a webhook endpoint',
    description: 'Changes the event kinds and switches the endpoint on or off; name, URL and timeout may change too. Switching it on resets its failure count.',
    tag: 'Webhooks',
    request: {
      params: endpointId,
      body: (family: FamilyId) => ({ events: eventKindsOf(family).slice(0, 2), is_active: true, timeout_seconds: 15 }),
      invalid: { is_active: 'yes' },
    },
    responses: { 200: json('The endpoint', R.WebhookEndpoint, 'single', { message: 'Webhook endpoint updated' }) },
  },
  deleteWebhook: {
    summary: 'Delete a webhook endpoint',
    description: 'Stops deliveries to this endpoint and removes it.',
    tag: 'Webhooks',
    request: { params: endpointId },
    responses: { 204: none('Deleted') },
  },
  rotateWebhookSecret: {
    summary: 'Rotate the signing secret (both sign for 24 hours)',
    description: 'Issues a new signing secret. For 24 hours deliveries carry signatures by both, so the receiver can switch without missing one.',
    tag: 'Webhooks',
    request: { params: endpointId },
    responses: {
      200: json('The endpoint with its new secret (shown only now)', R.WebhookEndpointWithSecret, 'single', {
        message: 'Secret rotated; the previous secret also signs for 24 hours',
      }),
    },
  },
  testWebhook: {
    summary: 'Send a webhook.test event',
    description: 'Queues a `webhook.test` event to this endpoint, to check the receiver and its signature verification; the attempt shows in the delivery log.',
    tag: 'Webhooks',
    request: { params: endpointId },
    responses: { 202: json('A webhook.test event is on its way', R.TestEventQueued, 'single', { message: 'Test event queued' }) },
  },
  replayWebhook: {
    summary: 'Send past events to this endpoint again',
    description:
      'Queues again the events this endpoint was sent since `since` (at most 14 days back): by default only those never delivered, with `all: true` every one. ' +
      'Each keeps its original `webhook-id`, so a receiver that de-duplicates by it takes each once.',
    tag: 'Webhooks',
    request: { params: endpointId, body: { since: '2026-11-19T09:00:00Z', all: false }, invalid: { since: 'last week' } },
    responses: {
      202: json('The events queued again, oldest first', R.ReplayQueued, 'single', { message: '2 events queued again' }),
      409: json('The endpoint is switched off', R.Problem, undefined, {
        example: { code: 'invalid-state', detail: 'The endpoint is switched off; switch it on (PUT is_active true) before replaying' },
      }),
    },
  },
  listWebhookDeliveries: {
    summary: 'Delivery attempts, newest first',
    description: 'Each attempt to deliver an event to this endpoint: outcome, HTTP status, duration, and when the next retry is due.',
    tag: 'Webhooks',
    request: { params: endpointId, query: { limit: 25 }, invalid: { limit: 'all' } },
    responses: { 200: json('Delivery attempts, newest first', R.DeliveryAttempt, 'page') },
  },

  getBalances: {
    summary: 'Credit and money balances',
    description: 'Interview credits left per interview type, and the money balance in pence, in this API family.',
    tag: 'Account',
    responses: { 200: json('Credits per product, and the money balance', R.Balances) },
  },
  listWalletTransactions: {
    summary: 'Wallet transactions, newest first',
    description: 'The ledger of credits and money: top-ups, booking charges and refunds, each with the balance after it.',
    tag: 'Account',
    request: { query: { limit: 25 }, invalid: { limit: '101' } },
    responses: { 200: json('Ledger entries, newest first', R.LedgerEntry, 'page') },
  },
  getBookingUrl: {
    summary: 'Your unique booking URL',
    description: "The link to this agency's public booking page, to share with candidates who book and pay themselves.",
    tag: 'Account',
    responses: { 200: json('The booking page of this agency', R.BookingUrl) },
  },
  rotateBookingUrl: {
    summary: 'Rotate your booking URL',
    description:
      "Gives this agency's public booking page a new link and retires the old one at once: from this answer on, the old link is 404. Share the new link with candidates. Bookings already made stay as they are, and unpaid ones still count against the page's five places until paid, cancelled or past their deadline.",
    tag: 'Account',
    responses: {
      200: json('The new link of the booking page', R.BookingUrl, undefined, {
        example: { booking_url: 'https://api.northwind-care.example/clinical-interview/book/t7Kc2pQx9ZrWm4VbN8aLsE3d' },
      }),
    },
  },

  getOpenApi: {
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 document of this API family, generated from the same route table and schemas that serve it.',
    tag: 'Documentation',
    responses: {
      200: {
        description: 'This document',
        content: 'application/json',
        example: { openapi: '3.1.0', info: { title: 'Clinical interview API', version: '1.0.0' }, paths: {} },
      },
    },
  },
  showDocs: {
    summary: 'Documentation page',
    description: 'Interactive documentation of this document (Swagger UI, served by the API itself).',
    tag: 'Documentation',
    responses: { 200: html('The documentation page', '<!doctype html><html lang="en"><head><title>API documentation</title>…</html>') },
  },
  getDocsAsset: {
    summary: 'Documentation page assets',
    description: 'The scripts and styles of the documentation page.',
    tag: 'Documentation',
    request: { params: { asset: 'swagger-ui.css' } },
    responses: {
      200: {
        description: 'The asset: a style sheet or a script',
        content: ['text/css', 'application/javascript'],
        example: '.swagger-ui{font-family:sans-serif}…',
      },
    },
  },
};
