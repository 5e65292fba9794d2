import type * as virtualLifeSupport from '../routes/virtual-life-support.js';
import { CLINICAL_INTERVIEW_CONTRACTS } from './clinical-interview.js';
import { html, json, none, pdf, type OperationContract } from './contract.js';
import { VLS_BOOKING, VLS_HOLD } from './course-examples.js';
import * as R from './responses.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

const candidate = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace.adeyemi@example.org',
  phone: '+447700900456',
  job_role: 'Registered Nurse',
  nmc_number: '12A3456B',
};
const TAG = 'Courses and timeslots';
const invitePageHtml = '<!doctype html><html lang="en-GB"><head><title>Book Immediate Life Support (virtual)</title>…</html>';
const linkPageHtml = '<!doctype html><html lang="en-GB"><head><title>Book Immediate Life Support (virtual)</title>…</html>';
const withdrawnHtml = '<!doctype html><html lang="en-GB"><head><title>Bookings closed</title>…</html>';
const inviteGone = '<!doctype html><html lang="en-GB"><head><title>This invite has expired</title>…</html>';

/** The family's own operations, and its client operations (this family's wallets only, decision 1). */
export const VIRTUAL_LIFE_SUPPORT_CONTRACTS: Record<keyof typeof virtualLifeSupport, OperationContract> & {
  getBalances: OperationContract;
  getBookingUrl: OperationContract;
  rotateBookingUrl: OperationContract;
  listWalletTransactions: OperationContract;
} = {
  listCourses: {
    summary: 'List active courses',
    description:
      'The live, instructor-led courses by video, with length, price, seats per session, certificate validity and free cancellation hours. `equipment_required` courses post a feedback manikin to the candidate before the session; `equipment_fees` are charged when it comes back late or not at all.',
    tag: TAG,
    responses: { 200: json('Active courses', R.VlsCourse, 'page') },
  },
  listTimeslots: {
    summary: 'List available timeslots',
    description:
      "A course's session times between two days (today and 13 days on when left out; at most 31 days) with the seats left across its sessions. A slot closes 24 hours before its start; for equipment courses slots before the 3rd working day from today are not offered, so the manikin can be posted in time.",
    tag: TAG,
    request: { query: { course_id: 1, from: '2026-12-01', to: '2026-12-14' }, invalid: { course_id: 'one' } },
    responses: { 200: json('Timeslots, soonest first', R.VlsTimeslot, 'page') },
  },
  holdTimeslot: {
    summary: `Hold a seat of a timeslot for ${HOLD_MINUTES} minutes`,
    description: `Reserves a free seat of a session of the course at that date and time for ${HOLD_MINUTES} minutes, so a booking can be made with \`hold_hash\`. One active hold per client: a second answers 409 with the one it has. A slot that is not offered is 422 \`slot-unavailable\` with \`reason\` (\`unknown\`, \`closed\`, \`inside_dispatch_lead_time\`, \`full\`).`,
    tag: TAG,
    request: { body: { course_id: 1, date: '2026-12-08', time: '10:00' }, invalid: { time: '10am' } },
    refusals: [
      { code: 'slot-unavailable', detail: 'Every seat of the slot on 2026-12-08 at 10:00 is booked or held', extensions: { reason: 'full' } },
      {
        code: 'slot-unavailable',
        detail: 'The slot on 2026-12-02 at 10:00 is too soon to post the manikin: the first date for this course is 2026-12-03',
        extensions: { reason: 'inside_dispatch_lead_time' },
      },
    ],
    responses: {
      201: json(`Held for ${HOLD_MINUTES} minutes`, R.VlsHold),
      409: json('The client already has an active hold; `hold` is it', R.VlsHoldConflict, undefined, {
        example: { code: 'hold-conflict', detail: 'This client already has an active hold; book or release it first', extensions: { hold: VLS_HOLD } },
      }),
    },
  },
  releaseHold: {
    summary: 'Release a hold',
    description: `Gives the held seat back before its ${HOLD_MINUTES} minutes are up. Another client's hold, or one used, released or expired, is 404.`,
    tag: TAG,
    request: { params: { holdHash: VLS_HOLD.hold_hash } },
    responses: { 204: none('Released') },
  },
  createBooking: {
    summary: 'Book a held seat',
    description:
      'Books the held seat for a candidate and pays with `pay_option`: one credit of the course, the money balance, an invoice, or `candidate_pays` (the candidate is e-mailed a payment link). `delivery_address` is required when the course has `equipment_required` (422 pointing at `/delivery_address` otherwise) and stored as null for other courses. The candidate is e-mailed the join link with a calendar invitation once the booking is confirmed.',
    tag: 'Bookings',
    request: {
      body: {
        hold_hash: VLS_HOLD.hold_hash,
        ...candidate,
        pay_option: 'credits',
        agency_contact_name: 'Sam Rota',
        delivery_address: { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' },
      },
      invalid: { delivery_address: { line1: '4 Mill Road', town: 'Leeds', postcode: 'not a postcode' } },
    },
    refusals: [
      {
        code: 'invalid-field',
        detail: 'Virtual adult BLS with manikin posts a manikin to the candidate: delivery_address is required',
        extensions: { pointer: '/delivery_address' },
      },
      { code: 'hold-expired', detail: 'That hold has expired; hold the slot again' },
      { code: 'insufficient-credits', detail: 'No Virtual adult BLS with manikin credits left', extensions: { credits: 0 } },
    ],
    responses: { 201: json('The booking', R.VlsBooking) },
  },
  listBookings: {
    summary: 'List bookings',
    description: "This client's bookings, newest first, by status, attendance, equipment status, course and session day.",
    tag: 'Bookings',
    request: {
      query: { status: 'booked', equipment_status: 'dispatched', course_id: 1, from: '2026-12-01', to: '2026-12-31', limit: 25 },
      invalid: { equipment_status: 'posted' },
    },
    responses: { 200: json('Bookings, newest first', R.VlsBooking, 'page') },
  },
  getBooking: {
    summary: 'Get a single booking',
    description:
      'One booking with its video meeting (null until paid), delivery address, equipment (dispatch and return tracking, fees), attendance, result and certificate state.',
    tag: 'Bookings',
    request: { params: { id: VLS_BOOKING.id } },
    responses: { 200: json('The booking', R.VlsBooking) },
  },
  downloadCertificate: {
    summary: 'Download the certificate (PDF)',
    description:
      'The certificate of a booking whose candidate attended and passed, once issued and paid for (`certificate_available`). Unreturned kit never withholds it. Otherwise 404 `certificate-unavailable` with `reason` `not_issued` or `payment_pending`.',
    tag: 'Bookings',
    request: { params: { id: VLS_BOOKING.id } },
    refusals: [
      {
        code: 'certificate-unavailable',
        detail: 'The certificate of booking 57 is withheld until the candidate has paid',
        extensions: { reason: 'payment_pending' },
      },
    ],
    responses: { 200: pdf('The certificate') },
  },
  showInvitePage: {
    summary: "Life-support request's invite page (HTML)",
    description: `The page the link of a portal v2 life-support request opens (this family e-mails it; the family has no invite operations): the course's timeslots with free seats, each with a button that holds a seat for ${HOLD_MINUTES} minutes; with a seat held, the candidate's details and, when the course posts a manikin, the delivery address. A timeslot of which the agency's invites already hold 3 seats (INVITE_SEATS_PER_SESSION) shows as busy. Opening it marks the request's item \`opened\` the first time; it never uses the invite. With \`?notice=seat-lost\` (where the booking form sends a candidate whose seat was no longer held) it says so above the timeslots. A used, expired or withdrawn invite, or a disabled agency's, answers 410.`,
    tag: 'Public pages',
    responses: { 200: html('The page', invitePageHtml), 410: html('The invite was used, has expired or was withdrawn', inviteGone) },
  },
  submitInvitePage: {
    summary: "Life-support request's invite page: book the held seat (HTML form)",
    description:
      "Books the seat the invite holds with the agency's `pay_option`, using the hold and the invite and booking the request's item in the same transaction: an invite books once. With `candidate_pays` the candidate goes on to the payment page. Refused while the seat is held (short of funds), the form says so and the invite, and its hold, stay usable; with no seat held (it ran out, or was given back), back to the invite page's timeslots, which says why.",
    tag: 'Public pages',
    responses: {
      200: html('Booked (agency-paid): the confirmation', invitePageHtml),
      303: none('Booked with candidate_pays: on to the payment page; or no seat held: back to the invite page, `?notice=seat-lost` (Location)'),
      410: html('The invite was used, has expired or was withdrawn', inviteGone),
      422: html('The form again, with what is wrong', invitePageHtml),
    },
  },
  holdInviteSeat: {
    summary: `Life-support request's invite page: hold a seat for ${HOLD_MINUTES} minutes (HTML form)`,
    description:
      "Holds a seat of the chosen timeslot (`slot`: `<date>T<time>`) for the invite, never the agency's own hold, so the candidate can enter their details and book. At most 3 seats of one timeslot (INVITE_SEATS_PER_SESSION) are held at once through the agency's invites; past it the page shows the time as busy and holds nothing.",
    tag: 'Public pages',
    responses: {
      303: none('Held: back to the invite page'),
      410: html('The invite was used, has expired or was withdrawn', inviteGone),
      422: html('The timeslot is full, busy or closed', invitePageHtml),
    },
  },
  releaseInviteSeat: {
    summary: "Life-support request's invite page: release the held seat (HTML form)",
    description: 'Gives the held seat back, so the candidate can choose another time.',
    tag: 'Public pages',
    responses: { 303: none('Released: back to the invite page'), 410: html('The invite was used, has expired or was withdrawn', inviteGone) },
  },
  showBookingPage: {
    summary: "Booking page: the agency's courses, open times and the candidate form (HTML)",
    description:
      "The agency's public booking link, the URL GET /client/booking-url gives: a candidate chooses a course (`?course_id=`), one of its timeslots that still leaves time to pay, enters their details and, when the course posts a manikin, the delivery address. Works without JavaScript. A rotated link is 404; a disabled agency's link 410.",
    tag: 'Public pages',
    responses: { 200: html('The page', linkPageHtml), 410: html('The agency takes no bookings through this link', withdrawnHtml) },
  },
  submitBookingPage: {
    summary: 'Booking page: book a time, candidate pays (HTML form)',
    description:
      'Books a free seat of the chosen timeslot (`slot`: `<date>T<time>`) with `candidate_pays` and sends the candidate to the payment page; it is due within 2 hours (LINK_PAYMENT_HOURS), never later than 2 hours before the start. At most five bookings made through the link wait for payment at once.',
    tag: 'Public pages',
    responses: {
      303: none('Booked: on to the payment page (Location)'),
      409: html('Every seat of that time was just taken', linkPageHtml),
      410: html('The agency takes no bookings through this link', withdrawnHtml),
      422: html('The form again, with what is wrong', linkPageHtml),
    },
  },
  showPaymentPage: CLINICAL_INTERVIEW_CONTRACTS.showPaymentPage,
  submitPaymentPage: CLINICAL_INTERVIEW_CONTRACTS.submitPaymentPage,
  getBookingUrl: {
    summary: 'Your unique booking URL',
    description:
      "The link to this agency's public booking page (`/book/{token}`): a candidate books a seat of a timeslot there and pays for it. The same link until rotated.",
    tag: 'Account',
    responses: { 200: json('The booking page of this agency', R.BookingUrl) },
  },
  rotateBookingUrl: {
    summary: 'Rotate your booking URL',
    description:
      "Gives this agency's public booking page a new link and retires the old one at once (404 from now on). Bookings made through the old link and waiting for payment still count against the link's five.",
    tag: 'Account',
    responses: { 200: json('The new link of the booking page', R.BookingUrl) },
  },
  listWalletTransactions: {
    summary: 'List wallet transactions',
    description:
      "This client's virtual life-support ledger, newest first: top-ups, debits for bookings, refunds, invoice lines and kit fees (`fee`: `equipment_late`, `equipment_lost`), each with its course.",
    tag: 'Account',
    request: { query: { limit: 25 }, invalid: { limit: 'all' } },
    responses: { 200: json('Ledger entries, newest first', R.VlsLedgerEntry, 'page') },
  },
  getBalances: {
    summary: 'Get credit and money balances',
    description:
      "This client's virtual life-support credits, one wallet per course, and its money balance in pence (negative after a kit fee it could not cover). Other families' wallets are separate.",
    tag: 'Account',
    responses: { 200: json('Balances', R.CourseBalances) },
  },
};
