import type * as practicalTraining from '../routes/practical-training.js';
import { json, none, type OperationContract } from './contract.js';
import { PRACTICAL_BOOKING, SEAT_HOLD } from './course-examples.js';
import * as R from './responses.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

const trainee = { first_name: 'Tom', last_name: 'Okoro', email: 'tom.okoro@example.org', phone: '+447700900321', job_role: 'Healthcare Assistant' };
const TAG = 'Courses and training events';

/** The family's own operations, and its balances (credits per course). */
export const PRACTICAL_TRAINING_CONTRACTS: Record<keyof typeof practicalTraining, OperationContract> & {
  getBalances: OperationContract;
  listWalletTransactions: OperationContract;
} = {
  listCourses: {
    summary: 'List active courses',
    description:
      'The classroom courses the agency can book, with length, price, certificate validity and how long before the start a cancellation is refunded. Use an `id` as `course_id` when listing training events.',
    tag: TAG,
    responses: { 200: json('Active courses', R.Course, 'page') },
  },
  listLocations: {
    summary: 'List training locations',
    description: 'The venues courses run at, with address, directions and accessibility.',
    tag: TAG,
    responses: { 200: json('Active locations', R.Location, 'page') },
  },
  listTrainingEvents: {
    summary: 'List upcoming training events',
    description:
      'Training events starting between two days (today and the next 92 days when left out; at most 92 days), soonest first, with live `seats_available`: capacity less booked seats and unexpired holds. `available_only=true` keeps events with a seat to hold now.',
    tag: TAG,
    request: {
      query: { course_id: 1, location_id: 1, from: '2026-12-01', to: '2026-12-31', available_only: 'true', limit: 25 },
      invalid: { available_only: 'yes' },
    },
    responses: { 200: json('Training events, soonest first', R.TrainingEvent, 'page') },
  },
  getTrainingEvent: {
    summary: 'Get a training event',
    description:
      'One training event with its seats available now and its status (`open`, `full`, `closed` 24 hours before the start, `completed`, `cancelled`).',
    tag: TAG,
    request: { params: { id: 17 } },
    responses: { 200: json('The training event', R.TrainingEvent) },
  },
  holdSeat: {
    summary: `Hold a seat for ${HOLD_MINUTES} minutes`,
    description: `Reserves a free seat of the training event for this client for ${HOLD_MINUTES} minutes, so a booking can be made with \`hold_hash\`. A client has at most one active seat hold: a second answers 409 with the one it has. Expired holds free their seat at once.`,
    tag: TAG,
    request: { body: { training_event_id: 17 }, invalid: { training_event_id: 'seventeen' } },
    refusals: [
      { code: 'event-full', detail: 'Every seat of training event 17 is booked or held', extensions: { pointer: '/training_event_id' } },
      { code: 'booking-closed', detail: 'Booking for training event 17 closed 24 hours before its start', extensions: { pointer: '/training_event_id' } },
      { code: 'event-unavailable', detail: 'Training event 17 is not open for booking', extensions: { pointer: '/training_event_id' } },
    ],
    responses: {
      201: json(`Held for ${HOLD_MINUTES} minutes`, R.SeatHold),
      409: json('The client already has an active seat hold; `hold` is it', R.SeatHoldConflict, undefined, {
        example: { code: 'hold-conflict', detail: 'This client already has an active seat hold; book or release it first', extensions: { hold: SEAT_HOLD } },
      }),
    },
  },
  releaseSeat: {
    summary: 'Release a seat hold',
    description: `Gives the held seat back before its ${HOLD_MINUTES} minutes are up. Another client's hold, or one used, released or expired, is 404.`,
    tag: TAG,
    request: { params: { holdHash: SEAT_HOLD.hold_hash } },
    responses: { 204: none('Released') },
  },
  createBooking: {
    summary: 'Book a held seat',
    description:
      'Books the held seat for a candidate and pays with `pay_option`: one credit of the course, the money balance, an invoice, or `candidate_pays` (the candidate is e-mailed a payment link; the seat is kept until `payment_due_at`). `nmc_number` is optional: carers have none. The hold is used up.',
    tag: 'Bookings',
    request: { body: { hold_hash: SEAT_HOLD.hold_hash, ...trainee, pay_option: 'credits', agency_contact_name: 'Sam Rota' }, invalid: { pay_option: 'cash' } },
    refusals: [
      { code: 'hold-expired', detail: 'That hold has expired; hold the slot again' },
      { code: 'insufficient-credits', detail: 'No Basic Life Support (adult) credits left', extensions: { credits: 0 } },
    ],
    responses: { 201: json('The booking', R.PracticalBooking) },
  },
  listBookings: {
    summary: 'List bookings',
    description: "This client's bookings, newest first, by status, attendance, course, training event and training day.",
    tag: 'Bookings',
    request: {
      query: { status: 'booked', attendance: 'pending', course_id: 1, from: '2026-12-01', to: '2026-12-31', limit: 25 },
      invalid: { attendance: 'late' },
    },
    responses: { 200: json('Bookings, newest first', R.PracticalBooking, 'page') },
  },
  listNoShows: {
    summary: 'List no-show bookings',
    description: 'Bookings whose candidate did not attend (a refused late arrival counts), newest first. No-shows are never refunded.',
    tag: 'Bookings',
    request: { query: { from: '2026-11-01', to: '2026-11-30' }, invalid: { from: '2026-13-01' } },
    responses: { 200: json('No-show bookings, newest first', R.PracticalBooking, 'page') },
  },
  getBooking: {
    summary: 'Get a single booking',
    description: 'One booking, with its candidate, course, training event, attendance, result, payment and certificate state.',
    tag: 'Bookings',
    request: { params: { id: PRACTICAL_BOOKING.id } },
    responses: { 200: json('The booking', R.PracticalBooking) },
  },
  cancelBooking: {
    summary: 'Cancel a booking',
    description:
      'Cancels a scheduled booking before its training starts and frees the seat. Credits or money come back only before `free_cancellation_until` (72 hours before the start for most courses); after it nothing is refunded. No-shows are never refunded.',
    tag: 'Bookings',
    request: { params: { id: PRACTICAL_BOOKING.id }, body: { reason: 'Candidate withdrew' }, invalid: { reason: 42 } },
    refusals: [{ code: 'cancellation-not-allowed', detail: "Booking 214's training event has started", extensions: { reason: 'started' } }],
    responses: { 200: json('The cancelled booking', R.PracticalBooking) },
  },
  getAccount: {
    summary: 'Get the account profile',
    description: 'This client: name, whether invoice payments are enabled, and the thresholds at which `credit_balance.low` and `money_balance.low` are sent.',
    tag: 'Account',
    responses: { 200: json('The account', R.Account) },
  },
  listWalletTransactions: {
    summary: 'List wallet transactions',
    description:
      "This client's practical training ledger, newest first: top-ups, debits for bookings, refunds and invoice lines, each with the course it was for and the balance after it.",
    tag: 'Account',
    request: { query: { limit: 25 }, invalid: { limit: 'all' } },
    responses: { 200: json('Ledger entries, newest first', R.CourseLedgerEntry, 'page') },
  },
  getBalances: {
    summary: 'Get credit and money balances',
    description:
      "This client's practical training credits, one wallet per course, and its practical training money balance (in pence). Clinical interview wallets are separate.",
    tag: 'Account',
    responses: { 200: json('Balances', R.CourseBalances) },
  },
};
