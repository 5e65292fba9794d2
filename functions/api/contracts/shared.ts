import type { clientOperations, docsOperations, tokenOperations, webhookOperations } from '../routes/shared.js';
import { html, json, none, type OperationContract } from './contract.js';
import * as R from './responses.js';

type Ids = keyof typeof tokenOperations | keyof typeof webhookOperations | keyof typeof clientOperations | keyof typeof docsOperations;

/** Contracts of the operations every family offers. */
export const SHARED_CONTRACTS: Record<Ids, OperationContract> = {
  exchangeToken: {
    summary: 'Exchange client credentials for a token pair',
    responses: { 200: json('A token pair', R.TokenPair), 401: json('Unknown client or wrong secret (the same answer for both)', R.Problem) },
  },
  refreshToken: {
    summary: 'Spend a refresh token for a new token pair',
    responses: {
      200: json('A new token pair; the refresh token presented is spent', R.TokenPair),
      401: json('Unknown, expired or revoked refresh token; a spent one revokes its whole grant', R.Problem),
    },
  },
  inspectToken: { summary: 'Inspect the current access token', responses: { 200: json('The current token', R.TokenInfo) } },
  revokeToken: { summary: 'Revoke the current token and its refresh token', responses: { 204: none('Revoked: the access token and its refresh token stop working') } },

  listWebhooks: { summary: 'List webhook endpoints', responses: { 200: json('Webhook endpoints', R.WebhookEndpoint, 'page') } },
  createWebhook: {
    summary: 'Create a webhook endpoint (the secret is shown once)',
    responses: { 201: json('The endpoint, with its secret (shown only now)', R.WebhookEndpointWithSecret, 'single') },
  },
  getWebhook: { summary: 'Get a webhook endpoint', responses: { 200: json('The endpoint', R.WebhookEndpoint, 'single') } },
  updateWebhook: { summary: 'Update a webhook endpoint', responses: { 200: json('The endpoint', R.WebhookEndpoint, 'single') } },
  deleteWebhook: { summary: 'Delete a webhook endpoint', responses: { 204: none('Deleted') } },
  rotateWebhookSecret: {
    summary: 'Rotate the signing secret (both sign for 24 hours)',
    responses: { 200: json('The endpoint with its new secret (shown only now)', R.WebhookEndpointWithSecret, 'single') },
  },
  testWebhook: { summary: 'Send a webhook.test event', responses: { 202: json('A webhook.test event is on its way', R.TestEventQueued, 'single') } },
  replayWebhook: {
    summary: 'Send past events to this endpoint again',
    description:
      'Queues again the events this endpoint was sent since `since` (at most 14 days back): by default only those never delivered, with `all: true` every one. ' +
      'Each keeps its original `webhook-id`, so a receiver that de-duplicates by it takes each once.',
    responses: {
      202: json('The events queued again, oldest first', R.ReplayQueued, 'single'),
      409: json('The endpoint is switched off', R.Problem),
    },
  },
  listWebhookDeliveries: { summary: 'Delivery attempts, newest first', responses: { 200: json('Delivery attempts, newest first', R.DeliveryAttempt, 'page') } },

  getBalances: { summary: 'Credit and money balances', responses: { 200: json('Credits per product, and the money balance', R.Balances) } },
  listWalletTransactions: { summary: 'Wallet transactions, newest first', responses: { 200: json('Ledger entries, newest first', R.LedgerEntry, 'page') } },
  getBookingUrl: { summary: 'Your unique booking URL', responses: { 200: json('The booking page of this agency', R.BookingUrl) } },

  getOpenApi: { summary: 'This OpenAPI document', responses: { 200: { description: 'This document' } } },
  showDocs: { summary: 'Documentation page', responses: { 200: html('The documentation page') } },
  getDocsAsset: { summary: 'Documentation page assets', responses: { 200: html('The documentation page assets') } },
};
