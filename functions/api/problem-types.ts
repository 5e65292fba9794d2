import type { DomainErrorCode } from '../core/platform/errors.js';

/**
 * Every problem type the API answers with, and its status and title: stated
 * once. The edge answers from it (functions/middleware/problems.ts) and the
 * OpenAPI documents' examples are built from it. SDK-free, so the documents
 * function can carry it.
 */

/** Problems the edge raises itself, before or around the domain. */
type EdgeProblemCode = 'malformed-json' | 'payload-too-large' | 'unsupported-media-type' | 'validation' | 'internal' | 'api-sunset' | 'method-not-allowed';

export type ProblemCode = DomainErrorCode | EdgeProblemCode;

export const PROBLEM_TYPES: Record<ProblemCode, { status: number; title: string }> = {
  'malformed-json': { status: 400, title: 'Malformed JSON' },
  'invalid-signature': { status: 400, title: 'Invalid signature' },
  'invalid-credentials': { status: 401, title: 'Invalid client credentials' },
  'invalid-token': { status: 401, title: 'Invalid token' },
  forbidden: { status: 403, title: 'Forbidden' },
  'acting-user-not-permitted': { status: 403, title: 'The acting user may not do this' },
  'not-found': { status: 404, title: 'Not found' },
  'certificate-unavailable': { status: 404, title: 'Certificate unavailable' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'client-exists': { status: 409, title: 'Client already exists' },
  'hold-conflict': { status: 409, title: 'The client already has an active hold' },
  'idempotency-in-flight': { status: 409, title: 'A request with this idempotency key is in flight' },
  'invalid-state': { status: 409, title: 'Not possible in the current state' },
  'job-running': { status: 409, title: 'A job of this kind is already running' },
  'subject-has-active-bookings': { status: 409, title: 'The person has upcoming bookings or open payments' },
  'api-sunset': { status: 410, title: 'This API is switched off' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  validation: { status: 422, title: 'Validation failed' },
  'invalid-field': { status: 422, title: 'Validation failed' },
  'invalid-catalog': { status: 422, title: 'Invalid catalogue change' },
  'hold-not-found': { status: 422, title: 'Hold not found' },
  'hold-expired': { status: 422, title: 'Hold expired' },
  'hold-used': { status: 422, title: 'Hold already used' },
  'slot-unavailable': { status: 422, title: 'Slot unavailable' },
  'event-full': { status: 422, title: 'Training event full' },
  'event-unavailable': { status: 422, title: 'Training event not open' },
  'booking-closed': { status: 422, title: 'Booking closed for this training event' },
  'cancellation-not-allowed': { status: 422, title: 'Cancellation not allowed' },
  'insufficient-credits': { status: 422, title: 'Insufficient credits' },
  'insufficient-balance': { status: 422, title: 'Insufficient balance' },
  'invoice-disabled': { status: 422, title: 'Invoice payments are not enabled' },
  'payment-window-closed': { status: 422, title: 'Too late for the candidate to pay' },
  'idempotency-key-reuse': { status: 422, title: 'Idempotency key reused with a different request' },
  'invalid-cursor': { status: 422, title: 'Invalid cursor' },
  'webhook-url-refused': { status: 422, title: 'Webhook URL refused' },
  'limit-reached': { status: 422, title: 'Limit reached' },
  'worker-duplicate': { status: 422, title: 'Another worker has this registration or external reference' },
  'worker-archived': { status: 422, title: 'Worker archived' },
  'alert-resolved': { status: 422, title: 'Alert resolved' },
  'last-owner': { status: 422, title: 'The last owner cannot be removed, disabled or demoted' },
  'owner-required': { status: 422, title: 'Only an owner may do this' },
  'team-user-duplicate': { status: 422, title: 'A team user has this e-mail address' },
  'role-built-in': { status: 422, title: 'Built-in roles cannot be changed' },
  'role-in-use': { status: 422, title: 'The role still has users' },
  'import-invalid-file': { status: 422, title: 'The file cannot be imported' },
  'import-queue-full': { status: 422, title: 'Too many imports queued' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal server error' },
  'evidence-integrity': { status: 500, title: 'Evidence failed its integrity check' },
  'payments-unavailable': { status: 503, title: 'Payments unavailable' },
};
