import type * as clinicalInterview from '../routes/clinical-interview.js';
import { html, json, none, pdf, type OperationContract } from './contract.js';
import { BOOKING, HOLD } from './examples.js';
import * as R from './responses.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

const candidate = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace.adeyemi@example.org',
  phone: '+447700900123',
  job_role: 'Registered Nurse',
  nmc_number: '12A3456B',
};
const pageHtml = '<!doctype html><html lang="en"><head><title>Book a clinical interview</title>…</html>';

export const CLINICAL_INTERVIEW_CONTRACTS: Record<keyof typeof clinicalInterview, OperationContract> = {
  listInterviewTypes: {
    summary: 'List active interview types',
    description:
      'The interview types the agency can book, with their length and price. Use an `id` from here as `interview_type_id` when listing and holding slots.',
    tag: 'Interview types and timeslots',
    responses: { 200: json('Active interview types', R.InterviewType, 'page') },
  },
  listTimeslots: {
    summary: 'List available timeslots of an interview type',
    description:
      'Free slots of one interview type between two dates (two weeks from today when left out), soonest first. A slot held or booked by anyone is not listed.',
    tag: 'Interview types and timeslots',
    request: { query: { interview_type_id: 1, from: '2026-11-23', to: '2026-11-27' }, invalid: { interview_type_id: 'one' } },
    responses: { 200: json('Free slots, soonest first', R.Timeslot, 'page') },
  },
  holdTimeslot: {
    summary: `Hold a timeslot for ${HOLD_MINUTES} minutes`,
    description: `Reserves a free slot for this client for ${HOLD_MINUTES} minutes, so a booking can be made from it with \`hold_hash\`. A client has at most one active hold: a second answers 409 with the hold it already has.`,
    tag: 'Interview types and timeslots',
    request: { body: { interview_type_id: 1, date: '2026-11-24', time: '09:45' }, invalid: { time: '9.45am' } },
    responses: {
      201: json(`Held for ${HOLD_MINUTES} minutes`, R.Hold),
      409: json('The client already has an active hold; `hold` is it', R.HoldConflict, undefined, {
        example: { code: 'hold-conflict', detail: 'This client already has an active hold; book or release it first', extensions: { hold: HOLD } },
      }),
    },
  },
  releaseHold: {
    summary: 'Release a slot hold',
    description: `Gives the held slot back before its ${HOLD_MINUTES} minutes are up, so another hold can be made.`,
    tag: 'Interview types and timeslots',
    responses: { 204: none('Released') },
  },
  createBooking: {
    summary: 'Create a booking from a held slot',
    description:
      'Books the held slot for a candidate and pays for it with `pay_option`: one interview credit, the money balance, an invoice, or `candidate_pays` (the booking waits for the candidate to pay on the payment page). The hold is used up.',
    tag: 'Bookings',
    request: { body: { hold_hash: HOLD.hold_hash, ...candidate, pay_option: 'credits' }, invalid: { email: 'grace.adeyemi@example' } },
    refusals: [
      { code: 'hold-expired', detail: 'That hold has expired; hold the slot again' },
      { code: 'insufficient-credits', detail: 'No Registered Nurse clinical interview credits left', extensions: { credits: 0 } },
    ],
    responses: { 201: json('The booking', R.Booking) },
  },
  listBookings: {
    summary: 'List bookings',
    description: "This client's bookings, newest first, optionally by status and interview date.",
    tag: 'Bookings',
    request: { query: { status: 'booked', from: '2026-11-01', to: '2026-11-30', limit: 25 }, invalid: { status: 'done' } },
    responses: { 200: json('Bookings, newest first', R.Booking, 'page') },
  },
  getBooking: {
    summary: 'Get a single booking',
    description: 'One booking, with its candidate, interviewer, video meeting and payment state.',
    tag: 'Bookings',
    request: { params: { id: BOOKING.id } },
    responses: { 200: json('The booking', R.Booking) },
  },
  downloadInterviewReport: {
    summary: 'Download the interview report (PDF)',
    description: "The interviewer's report, once the interview is completed and the report attached (`interview_report_available` on the booking).",
    tag: 'Bookings',
    request: { params: { id: BOOKING.id } },
    responses: { 200: pdf('The interview report') },
  },
  showBookingPage: {
    summary: 'Booking page: free slots and the candidate form (HTML)',
    description: "The agency's public booking page, the link GET /client/booking-url gives: a candidate picks a day and a time and enters their details.",
    tag: 'Public pages',
    responses: { 200: html('The page', pageHtml) },
  },
  submitBookingPage: {
    summary: 'Booking page: book a slot, candidate pays (HTML form)',
    description: 'The booking page form: books the chosen slot with `candidate_pays` and sends the candidate to the payment page.',
    tag: 'Public pages',
    responses: { 303: none('Done: see Location'), 409: html('The slot was just taken', pageHtml), 422: html('The form again, with errors', pageHtml) },
  },
  showPaymentPage: {
    summary: 'Payment page (HTML)',
    description:
      "Where a candidate pays for a `candidate_pays` booking before its payment deadline. Back from Stripe Checkout (`?session_id=`), it says the payment is being confirmed and refreshes itself until Stripe's event has confirmed the booking: the return alone confirms nothing.",
    tag: 'Public pages',
    request: { query: { session_id: 'cs_test_a1B2c3D4e5F6' } },
    responses: { 200: html('The page', pageHtml) },
  },
  submitPaymentPage: {
    summary: 'Payment page: pay (HTML form)',
    description:
      "Pays for the booking. With Stripe (the deployed provider) it sends the candidate to a Stripe Checkout page, the one still open if there is one, and Stripe's event confirms the booking; with the test provider the booking is confirmed at once and the candidate comes back to the page.",
    tag: 'Public pages',
    responses: {
      303: none("To Stripe's Checkout page (`Location`), or back to the payment page once paid"),
      409: html('The booking can no longer be paid for (cancelled, or its deadline passed)', pageHtml),
      422: html('The form again, with errors', pageHtml),
      503: html('Online payment is not available at the moment (Stripe unreachable, or no provider): nothing changed', pageHtml),
    },
  },
};
