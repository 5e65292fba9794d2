import * as v from 'valibot';
import type { dataSubjectOperations } from '../routes/data-subjects.js';
import { json, type OperationContract } from './contract.js';

/** What a person's data subject requests answer (routes/data-subjects.ts), in every family that offers them. */

const str = v.string();
const int = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const status = v.picklist(['queued', 'running', 'completed', 'failed', 'expired']);
const ActiveBooking = v.strictObject({ type: str, id: v.union([int, str]), reason: str });

export const DataSubjectAccepted = v.strictObject({ id: int, status: v.literal('queued') });
export const DataSubjectExport = v.strictObject({
  id: int,
  status,
  created_at: timestamp,
  finished_at: v.nullable(timestamp),
  expires_at: v.nullable(timestamp),
  data: v.nullable(v.looseObject({ family: str, generated_at: str, files: v.array(v.strictObject({ what: str, download: str })) })),
});
export const DataSubjectErasure = v.strictObject({
  id: int,
  status,
  created_at: timestamp,
  finished_at: v.nullable(timestamp),
  counts: v.record(str, int),
  kept: v.array(v.strictObject({ what: str, why: str, until: str })),
  active_bookings: v.optional(v.array(ActiveBooking)),
});

const TAG = 'Data subjects';
const email = 'grace.adeyemi@example.org';
const COUNTS = { records: 3, files: 1, messages: 2, webhook_deliveries: 4, idempotency_records: 1, exports: 1 };
const KEPT = [
  {
    what: 'Bookings 1042: ids, dates, course or interview, price and payment status, and their ledger entries (no name or contact details)',
    why: 'Finance records the agency must keep for HMRC (six years after the end of the financial year)',
    until: '2033-11-20',
  },
];
const ACTIVE = {
  code: 'subject-has-active-bookings',
  detail: 'The person has 1 booking(s) to come or payment(s) open; cancel or complete them first',
  extensions: { active_bookings: [{ type: 'booking', id: 1042, reason: 'has not taken place yet' }] },
};

export const DATA_SUBJECT_CONTRACTS: Record<keyof typeof dataSubjectOperations, OperationContract> = {
  startDataSubjectExport: {
    summary: "Export a person's data",
    description:
      'Starts an export of everything this API holds about one person for the agency (a subject access request): bookings, invites and files with where to download them (registration monitoring: the worker with their checks, alerts and evidence), found by the e-mail address without regard to case. Answers 202 at once; poll `GET /data-subjects/exports/{id}`. One export runs at a time per agency (else 409 `job-running`).',
    tag: TAG,
    request: { body: { email }, invalid: { email: 'not-an-address' } },
    refusals: [{ code: 'job-running', detail: 'Job 7 of this kind is still running; start another when it has finished', extensions: { job_id: 7 } }],
    responses: { 202: json('The export, queued', DataSubjectAccepted, 'single', { example: { id: 7, status: 'queued' }, message: 'Export accepted' }) },
  },
  getDataSubjectExport: {
    summary: 'Get an export',
    description:
      "The export's status; once `completed`, `data` is the person's data as one JSON document, for seven days (then `expired`). Another agency's export is 404.",
    tag: TAG,
    request: { params: { id: 7 } },
    responses: {
      200: json('The export', DataSubjectExport, 'single', {
        message: 'Export',
        example: {
          id: 7,
          status: 'completed',
          created_at: '2026-11-20T10:00:00+00:00',
          finished_at: '2026-11-20T10:00:02+00:00',
          expires_at: '2026-11-27T10:00:02+00:00',
          data: {
            family: 'clinical-interview',
            generated_at: '2026-11-20T10:00:02.114Z',
            bookings: [
              {
                id: 1042,
                candidate: { first_name: 'Grace', last_name: 'Adeyemi', email, phone: '+447700900123', job_role: 'Registered Nurse', nmc_number: '12A3456B' },
                start_at: '2026-11-24T09:45:00+00:00',
                booking_status: 'booked',
              },
            ],
            files: [{ what: 'Interview report of booking 1042', download: '/bookings/1042/interview-report' }],
          },
        },
      }),
    },
  },
  startDataSubjectErasure: {
    summary: "Erase a person's data",
    description:
      'Starts the erasure of one person\'s data in this API for the agency, found by e-mail address without regard to case. Refused with 409 `subject-has-active-bookings`, listing them, while the person has a booking to come or a payment open: the agency cancels or completes those first. Otherwise answers 202 and erases in the background: names become "Erased", contact details and free text null, files deleted, links answer 410 and unused invites close; finance records keep ids, dates and amounts. A monitored worker is archived, and their checks and evidence are kept. `data_subject.erased` is sent when done, with the address\'s SHA-256, never the address. Erasing an address again completes with zero counts.',
    tag: TAG,
    request: { body: { email }, invalid: { email: '' } },
    refusals: [ACTIVE, { code: 'job-running', detail: 'Job 8 of this kind is still running; start another when it has finished', extensions: { job_id: 8 } }],
    responses: {
      202: json('The erasure, queued', DataSubjectAccepted, 'single', { example: { id: 8, status: 'queued' }, message: 'Erasure accepted' }),
    },
  },
  getDataSubjectErasure: {
    summary: 'Get an erasure',
    description:
      "The erasure's status; once `completed`, how many records, files and copies (sent messages, webhook deliveries, kept responses, exports) were erased, and `kept`: what the law makes the agency keep, why and until when. `failed` with `active_bookings` when a booking was made after the request.",
    tag: TAG,
    request: { params: { id: 8 } },
    responses: {
      200: json('The erasure', DataSubjectErasure, 'single', {
        message: 'Erasure',
        example: { id: 8, status: 'completed', created_at: '2026-11-20T10:05:00+00:00', finished_at: '2026-11-20T10:05:03+00:00', counts: COUNTS, kept: KEPT },
      }),
    },
  },
};
