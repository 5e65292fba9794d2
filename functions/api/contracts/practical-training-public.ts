import * as v from 'valibot';
import type * as practicalTrainingPublic from '../routes/practical-training-public.js';
import { CLINICAL_INTERVIEW_CONTRACTS } from './clinical-interview.js';
import { html, json, none, pdf, type OperationContract } from './contract.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

/** Contract entries of the practical training family's invites, certificates and candidate pages. */

const str = v.string();
const int = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const orNull = <T extends v.GenericSchema>(s: T) => v.nullable(s);

export const BookingInvite = v.strictObject({
  id: int,
  uuid: str,
  status: v.picklist(['queued', 'sent', 'opened', 'used', 'expired']),
  candidate: v.strictObject({ first_name: str, last_name: str, email: str }),
  course: v.strictObject({ id: int, name: str, code: str }),
  training_event: orNull(v.strictObject({ id: int, date: str, start_time: str, start_at: timestamp })),
  location: orNull(v.strictObject({ id: int, name: str, town: str, postcode: str })),
  pay_option: v.picklist(['credits', 'balance', 'invoice', 'candidate_pays']),
  message: orNull(str),
  open_count: int,
  booking_id: orNull(int),
  sent_at: orNull(timestamp),
  opened_at: orNull(timestamp),
  used_at: orNull(timestamp),
  expires_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
});
export const BookingInviteCreated = v.strictObject({ ...BookingInvite.entries, invite_url: str });

const INVITE = {
  id: 12,
  uuid: '0f8c2b7e-5d1a-4c3e-9b2f-7a6d5e4c3b2a',
  status: 'sent',
  candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace.adeyemi@example.org' },
  course: { id: 1, name: 'Basic Life Support (adult)', code: 'BLS-A' },
  training_event: null,
  location: { id: 2, name: 'Leeds Training Centre', town: 'Leeds', postcode: 'LS1 4AP' },
  pay_option: 'credits',
  message: 'Please book before your first shift on 1 December.',
  open_count: 0,
  booking_id: null,
  sent_at: '2026-11-20T10:02:44+00:00',
  opened_at: null,
  used_at: null,
  expires_at: '2026-12-04T10:02:41+00:00',
  created_at: '2026-11-20T10:02:41+00:00',
  updated_at: '2026-11-20T10:02:44+00:00',
};
const CREATED = {
  ...INVITE,
  status: 'queued',
  sent_at: null,
  updated_at: INVITE.created_at,
  invite_url: 'https://api.northwind-care.example/practical-training/invite/Jd0xqk0Wc1f7h3bJ4Nw9_3Q1n9mQfAq1dMx4kS0eYyE',
};
const pageHtml = '<!doctype html><html lang="en-GB"><head><title>Book Basic Life Support (adult)</title>…</html>';
const gone = '<!doctype html><html lang="en-GB"><head><title>This invite has been used</title>…</html>';

export const PRACTICAL_TRAINING_PUBLIC_CONTRACTS: Record<keyof typeof practicalTrainingPublic, OperationContract> = {
  createBookingInvite: {
    summary: 'Create and send a booking invite',
    description:
      "E-mails the candidate a single-use link to book a course: any upcoming event of it, the events at one location (`location_id`), or one event (`training_event_id`). Nothing is charged or reserved now; the agency's `pay_option` is charged when the candidate books. `invite_url` is in this answer only (the service keeps only a hash of its token).",
    tag: 'Booking invites',
    request: {
      body: { candidate: INVITE.candidate, course_id: 1, location_id: 2, pay_option: 'credits', expires_in_days: 14, message: INVITE.message },
      invalid: { expires_in_days: 90 },
    },
    refusals: [
      { code: 'invoice-disabled', detail: 'Invoice payments are not enabled on this account' },
      { code: 'invalid-field', detail: 'No upcoming event 7 of course 1', extensions: { pointer: '/training_event_id' } },
    ],
    responses: { 201: json('The invite, queued for e-mail, with its link', BookingInviteCreated, undefined, { example: CREATED }) },
  },
  listBookingInvites: {
    summary: 'List booking invites',
    description: "This client's booking invites, newest first, with their status (`expired` once past `expires_at` unused) and how often the link was opened.",
    tag: 'Booking invites',
    request: { query: { limit: 25 }, invalid: { limit: 0 } },
    responses: { 200: json('Invites, newest first', BookingInvite, 'page', { example: INVITE }) },
  },
  getBookingInvite: {
    summary: 'Get a booking invite',
    description: 'One invite: whether it was sent, opened (a mail scanner may open it too) or used, and the booking it made.',
    tag: 'Booking invites',
    request: { params: { id: INVITE.id } },
    responses: { 200: json('The invite', BookingInvite, undefined, { example: INVITE }) },
  },
  downloadCertificate: {
    summary: 'Download the completion certificate (PDF)',
    description:
      'The certificate of a booking whose candidate attended and passed, once issued and paid for (`certificate_available` on the booking). Rendered on request. Otherwise 404 `certificate-unavailable` with `reason` `not_issued` or `payment_pending`.',
    tag: 'Bookings',
    request: { params: { id: 1042 } },
    refusals: [
      {
        code: 'certificate-unavailable',
        detail: 'The certificate of booking 1042 is withheld until the candidate has paid',
        extensions: { reason: 'payment_pending' },
      },
    ],
    responses: { 200: pdf('The certificate') },
  },
  showInvitePage: {
    summary: 'Invite page: events to choose from (HTML)',
    description:
      'The page an invite link opens: the events the invite allows with their free seats, and the seat the candidate holds. Opening it counts in `open_count` and, the first time, marks the invite `opened` (a mail scanner may do that); it never uses the invite. With `?notice=seat-lost` (where the booking form sends a candidate whose seat was no longer held) it says so above the events. A used or expired invite answers 410.',
    tag: 'Public pages',
    responses: { 200: html('The page', pageHtml), 410: html('The invite was used or has expired', gone) },
  },
  submitInvitePage: {
    summary: 'Invite page: book the held seat (HTML form)',
    description:
      "Books the seat the candidate holds and uses the invite, in one transaction: an invite books once. The agency's `pay_option` is charged now; with `candidate_pays` the candidate goes on to the payment page. If the agency is short of funds, the form says so and the invite stays usable. With no seat held (it ran out, or was given back), back to the invite page's events, which says why.",
    tag: 'Public pages',
    responses: {
      200: html('Booked (agency-paid): the confirmation', pageHtml),
      303: none('Booked with candidate_pays: on to the payment page; or no seat held: back to the invite page, `?notice=seat-lost` (Location)'),
      410: html('The invite was used or has expired', gone),
      422: html('The form again, with what is wrong', pageHtml),
    },
  },
  holdInviteSeat: {
    summary: `Invite page: hold a seat for ${HOLD_MINUTES} minutes (HTML form)`,
    description: "Holds a seat on the chosen event for the invite (never the agency's own hold), so the candidate can enter their details and book.",
    tag: 'Public pages',
    responses: {
      303: none('Held: back to the invite page'),
      410: html('The invite was used or has expired', gone),
      422: html('The event is full or closed', pageHtml),
    },
  },
  releaseInviteSeat: {
    summary: 'Invite page: release the held seat (HTML form)',
    description: 'Gives the held seat back, so the candidate can choose another event.',
    tag: 'Public pages',
    responses: { 303: none('Released: back to the invite page'), 410: html('The invite was used or has expired', gone) },
  },
  showBookingPage: {
    summary: "Booking page: the agency's courses, open dates and the candidate form (HTML)",
    description:
      "The agency's public booking link, the URL GET /client/booking-url gives: a candidate chooses a course (`?course_id=`), one of its open dates that still leaves time to pay, and enters their details. Works without JavaScript.",
    tag: 'Public pages',
    responses: { 200: html('The page', pageHtml) },
  },
  submitBookingPage: {
    summary: 'Booking page: book a date, candidate pays (HTML form)',
    description:
      'Books a free seat of the chosen date with `candidate_pays` and sends the candidate to the payment page. At most five bookings made through the link wait for payment at once.',
    tag: 'Public pages',
    responses: {
      303: none('Booked: on to the payment page (Location)'),
      409: html('Every seat of that date was just taken', pageHtml),
      422: html('The form again, with what is wrong', pageHtml),
    },
  },
  // The payment page is the booking engine's, the same in every booking family.
  showPaymentPage: CLINICAL_INTERVIEW_CONTRACTS.showPaymentPage,
  submitPaymentPage: CLINICAL_INTERVIEW_CONTRACTS.submitPaymentPage,
};
