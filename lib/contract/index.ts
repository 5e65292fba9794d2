import type * as v from 'valibot';
import { BookingRequest, BookingsQuery, HoldRequest, PageQuery, TimeslotsQuery } from '../../functions/http/clinical-interview/schemas.js';
import { CandidateCreate, PageQuery as PortalPageQuery, RefereeInput, ReferenceRequestCreate, ReferenceRequestsQuery } from '../../functions/http/portal-v2/schemas.js';
import { RefreshRequest, TokenRequest } from '../../functions/http/shared/auth-schemas.js';
import { webhookSchemas } from '../../functions/http/shared/webhook-schemas.js';
import type { Route } from '../routes.js';
import * as R from './responses.js';

/**
 * What each operation of the route table takes and answers, from the same
 * valibot schemas the handlers use. The OpenAPI documents and the contract
 * test are built from this; a route without an entry here fails the tests.
 */

export interface ResponseContract {
  description: string;
  item?: v.GenericSchema;
  wrap?: 'page' | 'envelope';
  content?: 'application/json' | 'application/pdf' | 'text/html';
}

export interface OperationContract {
  body?: v.GenericSchema;
  query?: v.GenericSchema;
  responses: Record<number, ResponseContract>;
}

/** Creating POSTs that honour Idempotency-Key (their handlers say `idempotent: true`). */
export const IDEMPOTENT_OPERATIONS = new Set(['holdTimeslot', 'createBooking', 'createWebhook', 'createCandidate', 'createReferenceRequest', 'addReferee']);

/** Top-level fields the source specification states, per schema; every other field is the project's. */
export const SPEC_FIELDS = new Map<v.GenericSchema, readonly string[] | 'all'>([
  [HoldRequest, 'all'],
  [BookingRequest, 'all'],
  [ReferenceRequestCreate, 'all'],
  [RefereeInput, 'all'],
  [R.Hold, 'all'],
  [R.Booking, 'all'],
  [R.ReferenceRequest, 'all'],
  [R.Reference, 'all'],
  [R.ReferenceDetail, Object.keys(R.Reference.entries)],
  [R.WebhookEndpoint, 'all'],
  [R.WebhookEndpointWithSecret, Object.keys(R.WebhookEndpoint.entries)],
]);

const json = (description: string, item: v.GenericSchema, wrap?: ResponseContract['wrap']): ResponseContract => ({ description, item, wrap });
const none = (description: string): ResponseContract => ({ description });
const html = (description: string): ResponseContract => ({ description, content: 'text/html' });

export function contractOf(route: Route): OperationContract {
  const portal = route.family === 'portal-v2';
  // The portal family wraps single resources in its envelope; the clinical interview family does not.
  const single: ResponseContract['wrap'] = portal ? 'envelope' : undefined;
  const hooks = webhookSchemas(route.family);
  switch (route.operationId) {
    case 'exchangeToken':
      return { body: TokenRequest, responses: { 200: json('A token pair', R.TokenPair), 401: json('Unknown client or wrong secret (the same answer for both)', R.Problem) } };
    case 'refreshToken':
      return {
        body: RefreshRequest,
        responses: {
          200: json('A new token pair; the refresh token presented is spent', R.TokenPair),
          401: json('Unknown, expired or revoked refresh token; a spent one revokes its whole grant', R.Problem),
        },
      };
    case 'inspectToken':
      return { responses: { 200: json('The current token', R.TokenInfo) } };
    case 'revokeToken':
      return { responses: { 204: none('Revoked: the access token and its refresh token stop working') } };

    case 'listInterviewTypes':
      return { responses: { 200: json('Active interview types', R.InterviewType, 'page') } };
    case 'listTimeslots':
      return { query: TimeslotsQuery, responses: { 200: json('Free slots, soonest first', R.Timeslot, 'page') } };
    case 'holdTimeslot':
      return {
        body: HoldRequest,
        responses: { 201: json('Held for 30 minutes', R.Hold), 409: json('The client already has an active hold; `hold` is it', R.HoldConflict) },
      };
    case 'releaseHold':
      return { responses: { 204: none('Released') } };
    case 'createBooking':
      return { body: BookingRequest, responses: { 201: json('The booking', R.Booking) } };
    case 'listBookings':
      return { query: BookingsQuery, responses: { 200: json('Bookings, newest first', R.Booking, 'page') } };
    case 'getBooking':
      return { responses: { 200: json('The booking', R.Booking) } };
    case 'downloadInterviewReport':
      return { responses: { 200: { description: 'The interview report', content: 'application/pdf' } } };
    case 'getBalances':
      return { responses: { 200: json('Credits per interview type, and the money balance', R.Balances) } };
    case 'listWalletTransactions':
      return { query: PageQuery, responses: { 200: json('Ledger entries, newest first', R.LedgerEntry, 'page') } };
    case 'getBookingUrl':
      return { responses: { 200: json('The booking page of this agency', R.BookingUrl) } };
    case 'showBookingPage':
    case 'showPaymentPage':
      return { responses: { 200: html('The page') } };
    case 'submitBookingPage':
    case 'submitPaymentPage':
      return { responses: { 303: none('Done: see Location'), 409: html('The slot was just taken'), 422: html('The form again, with errors') } };

    case 'listWebhooks':
      return { responses: { 200: json('Webhook endpoints', R.WebhookEndpoint, 'page') } };
    case 'createWebhook':
      return { body: hooks.create, responses: { 201: json('The endpoint, with its secret (shown only now)', R.WebhookEndpointWithSecret, single) } };
    case 'getWebhook':
      return { responses: { 200: json('The endpoint', R.WebhookEndpoint, single) } };
    case 'updateWebhook':
      return { body: hooks.update, responses: { 200: json('The endpoint', R.WebhookEndpoint, single) } };
    case 'deleteWebhook':
      return { responses: { 204: none('Deleted') } };
    case 'rotateWebhookSecret':
      return { responses: { 200: json('The endpoint with its new secret (shown only now)', R.WebhookEndpointWithSecret, single) } };
    case 'testWebhook':
      return { responses: { 202: json('A webhook.test event is on its way', R.TestEventQueued, single) } };
    case 'listWebhookDeliveries':
      return { query: hooks.logs, responses: { 200: json('Delivery attempts, newest first', R.DeliveryAttempt, 'page') } };

    case 'listCandidates':
      return { query: PortalPageQuery, responses: { 200: json('Candidates, newest first', R.Candidate, 'page') } };
    case 'createCandidate':
      return { body: CandidateCreate, responses: { 201: json('The candidate', R.Candidate, 'envelope') } };
    case 'getCandidate':
      return { responses: { 200: json('The candidate', R.Candidate, 'envelope') } };
    case 'listTemplates':
      return { responses: { 200: json('Reference form templates', R.Template, 'page') } };
    case 'listReferenceRequests':
      return { query: ReferenceRequestsQuery, responses: { 200: json('Reference requests, newest first', R.ReferenceRequest, 'page') } };
    case 'createReferenceRequest':
      return { body: ReferenceRequestCreate, responses: { 201: json('The reference request', R.ReferenceRequest, 'envelope'), 403: json('The account does not include reference requests', R.Problem) } };
    case 'getReferenceRequest':
      return { responses: { 200: json('The reference request', R.ReferenceRequest, 'envelope') } };
    case 'cancelReferenceRequest':
    case 'sendReminders':
      return { responses: { 200: json('The reference request', R.ReferenceRequest, 'envelope'), 409: json('The request is cancelled or expired', R.Problem) } };
    case 'addReferee':
      return { body: RefereeInput, responses: { 201: json('The reference request, with the new reference', R.ReferenceRequest, 'envelope'), 409: json('The request is closed or full', R.Problem) } };
    case 'getReference':
      return { responses: { 200: json('The reference, with the answers', R.ReferenceDetail, 'envelope') } };
    case 'downloadReferencePdf':
      return { responses: { 200: { description: 'The completed reference', content: 'application/pdf' } } };
    case 'showReferenceForm':
    case 'showRefereeSubmission':
      return { responses: { 200: html('The page'), 410: html('The request was cancelled or has expired') } };
    case 'submitReferenceForm':
    case 'submitReferees':
      return { responses: { 200: html('Received'), 409: html('Already answered'), 410: html('Cancelled or expired'), 422: html('The form again, with errors') } };
    case 'getOpenApi':
      return { responses: { 200: { description: 'This document' } } };
    case 'showDocs':
    case 'getDocsAsset':
      return { responses: { 200: html('The documentation page and its assets') } };
    default:
      throw new Error(`No contract for ${route.family} ${route.operationId}`);
  }
}
