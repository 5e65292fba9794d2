import { PROBLEM_TYPES, type ProblemCode } from '../problem-types.js';
import type * as v from 'valibot';
import { eventKindsOf } from '../../core/events/kinds.js';
import type { FamilyId } from '../../core/platform/families.js';
import { CANDIDATE, COMPLETED_REFERENCE, GROUP_REQUEST, REFERENCE_REQUEST, TEMPLATE } from './portal-v2-examples.js';
import { COURSE_EXAMPLES } from './course-examples.js';
import { MONITORING_EXAMPLES } from './registration-monitoring-examples.js';
import * as P from './portal-v2-responses.js';
import * as R from './responses.js';

/**
 * Example values for the OpenAPI documents: one realistic resource per
 * response shape, and one problem per kind of refusal. A unit test parses
 * every example with the schema it illustrates and checks each problem's
 * type, title and status against the edge's own mapping, so none can drift.
 */

/** An example, or one per family (webhook event kinds differ). */
export type Example<T = unknown> = T | ((family: FamilyId) => T);

const perFamily = (example: Example): example is (family: FamilyId) => unknown => typeof example === 'function';

export const exampleFor = (example: Example, family: FamilyId): unknown => (perFamily(example) ? example(family) : example);

/** The first event kind of the family, for webhook examples. */
const firstKind = (family: FamilyId) => eventKindsOf(family)[0]!;

const ref = { id: 1, name: 'Registered Nurse clinical interview' };
const slot = { date: '2026-11-24', time: '09:45', interview_type: ref };

export const HOLD = { hold_hash: '4mvtSQixyBFvmQ83ACKCH2A5LgUZLZXeUyG5RqkcoaI', expires_at: '2026-11-20T10:30:00+00:00', expires_in_seconds: 1800, slot };

export const BOOKING = {
  id: 1042,
  candidate: { name: 'Grace Adeyemi', email: 'grace.adeyemi@example.org', phone: '+447700900123', job_role: 'Registered Nurse', nmc_number: '12A3456B' },
  interview_type: ref,
  interviewer: { id: 3, name: 'Dr Amara Okafor' },
  start_date: '2026-11-24T09:45:00+00:00',
  end_date: '2026-11-24T10:30:00+00:00',
  booking_status: 'booked',
  interview_status: 'scheduled',
  attendance: 'pending',
  pay_status: 'completed',
  pay_option: 'credits',
  payment_due_at: null,
  booked_by: 'Agency',
  video_meeting: { meeting_id: '3297633262', join_link: 'https://meet.jit.si/clinical-interview-3297633262', password: '00QRDNhk' },
  interview_report_available: false,
  created_at: '2026-11-20T10:02:41+00:00',
  updated_at: '2026-11-20T10:02:41.318+00:00',
};

// Portal v1 has no events of its own: its subscriptions are portal v2 endpoints (decision 12).
const endpoint = (family: FamilyId) => ({
  id: 3,
  name: 'Compliance system',
  url: 'https://hooks.northwind-care.example/agency-api',
  events: [family === 'portal-v1' ? 'training_request.completed' : firstKind(family)],
  secret_prefix: 'whsec_aTjH••••••••',
  is_active: true,
  timeout_seconds: 10,
  last_delivered_at: '2026-11-20T10:02:43+00:00',
  last_response_code: 200,
  consecutive_failures: 0,
  created_at: '2026-11-02T14:11:05+00:00',
});

/** The usual example of each response shape; a contract entry may give another. */
export const RESOURCE_EXAMPLES = new Map<v.GenericSchema, Example>([
  [
    R.TokenPair,
    {
      token_type: 'Bearer',
      access_token: 'FMDqhpENXSvMVqwl7DXRAw6kZoIxC6iVKOote8qzByw',
      expires_in: 3600,
      refresh_token: 'KJN83iA1FNW2OjLmZArg7-qltLslNHY7zA60MozVBfs',
      refresh_expires_in: 2592000,
    },
  ],
  [
    R.TokenInfo,
    (family: FamilyId) => ({
      active: true,
      client_id: 'northwind-care',
      family,
      issued_at: '2026-11-20T09:58:12.301Z',
      expires_at: '2026-11-20T10:58:12.301Z',
    }),
  ],
  [R.InterviewType, { id: 1, name: 'Registered Nurse clinical interview', duration_minutes: 45, price: { amount: 4500, currency: 'GBP' } }],
  [R.Timeslot, slot],
  [R.Hold, HOLD],
  [R.Booking, BOOKING],
  [
    R.Balances,
    {
      credits: [
        { interview_type: ref, credits: 9 },
        { interview_type: { id: 2, name: 'Mental Health Nurse clinical interview' }, credits: 10 },
      ],
      money: { amount: 50000, currency: 'GBP' },
    },
  ],
  [
    R.LedgerEntry,
    {
      id: 'led_1022905baef54c16ace068906224fcc1',
      client_id: 'northwind-care',
      created_at: '2026-11-20T10:02:41+00:00',
      kind: 'credit_debit',
      amount: -1,
      unit: 'credits',
      balance_after: 9,
      booking_id: 1042,
      interview_type: ref,
      note: null,
      family: 'clinical-interview',
      product: { kind: 'interview_type', ...ref },
      pay_option: 'credits',
      provider_reference: null,
      refund_status: null,
    },
  ],
  [R.BookingUrl, { booking_url: 'https://api.northwind-care.example/clinical-interview/book/JPjb_hn4J2vE0bA6mptK1W5t' }],
  [R.WebhookEndpoint, endpoint],
  [R.WebhookEndpointWithSecret, (family: FamilyId) => ({ ...endpoint(family), secret: 'whsec_aTjHCyrbsG8rZ0TgOhtEiCDu48bxjFlS9rkUSS+fe7A=' })],
  [R.TestEventQueued, { event_id: 'evt_ead61a050c854f51928202315e94fa3b', status: 'queued' }],
  [R.ReplayQueued, { replayed: 2, event_ids: ['evt_1b0c29d7e4a34f0f9a3c1d2e5f6a7b8c', 'evt_ead61a050c854f51928202315e94fa3b'] }],
  [
    R.DeliveryAttempt,
    (family: FamilyId) => ({
      event_id: 'evt_ead61a050c854f51928202315e94fa3b',
      event_type: firstKind(family),
      attempt: 2,
      attempted_at: '2026-11-20T10:03:13+00:00',
      outcome: 'delivered',
      response_status: 200,
      error: null,
      duration_ms: 184,
      next_attempt_at: null,
    }),
  ],
  [P.Candidate, CANDIDATE],
  [P.Template, TEMPLATE],
  [P.ReferenceRequest, REFERENCE_REQUEST],
  [P.GroupRequest, GROUP_REQUEST],
  [P.AnyTemplate, TEMPLATE],
  [P.ReferenceDetail, COMPLETED_REFERENCE],
  ...COURSE_EXAMPLES,
  [
    R.Account,
    {
      client_id: 'northwind-care',
      name: 'Northwind Care',
      created_at: '2026-11-02T14:10:00+00:00',
      invoice_enabled: false,
      balance_alerts: { credits_low_at: 2, money_low_at: { amount: 5000, currency: 'GBP' } },
    },
  ],
  ...MONITORING_EXAMPLES,
]);

/** What a refusal's problem says: its code (the `type` after /problems/), and the detail of this example. */
export interface Refusal {
  code: string;
  detail: string;
  extensions?: Record<string, unknown>;
}

export function problemExample({ code, detail, extensions }: Refusal): Record<string, unknown> {
  const known = PROBLEM_TYPES[code as ProblemCode];
  if (!known) throw new Error(`No problem type ${code} in PROBLEM_TYPES`);
  return { type: `/problems/${code}`, title: known.title, status: known.status, detail, ...extensions };
}

/** The refusals the builder adds to every operation they apply to. */
export const COMMON_REFUSALS = {
  familyAccess: { code: 'forbidden', detail: 'This account has no access to the Portal API version 1 (deprecated)' },
  actingUser: { code: 'acting-user-not-permitted', detail: 'The acting user may not do this (workers:write)', extensions: { permission: 'workers:write' } },
  malformedJson: { code: 'malformed-json', detail: 'The request body is not valid JSON' },
  invalidToken: { code: 'invalid-token', detail: 'The token is missing, unknown, expired or revoked' },
  notFound: { code: 'not-found', detail: 'Nothing is found at this address' },
  tooLarge: { code: 'payload-too-large', detail: 'Request bodies are limited to 65536 bytes' },
  unsupportedMediaType: { code: 'unsupported-media-type', detail: 'Send the body as application/json' },
  rateLimited: { code: 'rate-limited', detail: 'At most 600 requests per 60 seconds' },
  internal: { code: 'internal', detail: 'Something went wrong on our side; it has been logged' },
  apiSunset: {
    code: 'api-sunset',
    detail:
      'This API is deprecated and switched off for a brownout until 2027-03-02T15:00:00.000Z; it is switched off for good on Wed, 30 Jun 2027 00:00:00 GMT',
    extensions: {
      sunset: '2027-06-30T00:00:00.000Z',
      successor: 'https://api.northwind-care.example/practical-training/bookings',
      brownout_ends_at: '2027-03-02T15:00:00.000Z',
      docs: 'https://api.northwind-care.example/practical-training-legacy/docs',
    },
  },
} satisfies Record<string, Refusal>;

/** Example values of path parameters, by name, for operations that do not give their own. */
export const PATH_PARAM_EXAMPLES: Record<string, string | number> = {
  id: 1042,
  token: 'JPjb_hn4J2vE0bA6mptK1W5t',
  holdHash: HOLD.hold_hash,
  asset: 'swagger-ui.css',
  group: 'training-requests',
  item_id: 71,
};
