import { PaymentPageQuery } from '../schemas/fields.js';
import { BookingRequest, BookingsQuery, HoldRequest, TimeslotsQuery } from '../schemas/clinical-interview.js';
import type { Operation } from './operation.js';

/** The clinical interview family's own operations; handlers under functions/http/clinical-interview. */
export const listInterviewTypes = {
  operationId: 'listInterviewTypes',
  family: 'clinical-interview',
  method: 'GET',
  path: '/interview-types',
  handler: 'clinical-interview/interview-types-list',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const listTimeslots = {
  operationId: 'listTimeslots',
  family: 'clinical-interview',
  method: 'GET',
  path: '/timeslots',
  handler: 'clinical-interview/timeslots-list',
  auth: 'bearer',
  contract: 'spec',
  query: TimeslotsQuery,
} as const satisfies Operation;
export const holdTimeslot = {
  operationId: 'holdTimeslot',
  family: 'clinical-interview',
  method: 'POST',
  path: '/timeslots/hold',
  handler: 'clinical-interview/timeslots-hold',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: HoldRequest,
} as const satisfies Operation;
export const releaseHold = {
  operationId: 'releaseHold',
  family: 'clinical-interview',
  method: 'DELETE',
  path: '/timeslots/hold/{holdHash}',
  handler: 'clinical-interview/timeslots-release',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const createBooking = {
  operationId: 'createBooking',
  family: 'clinical-interview',
  method: 'POST',
  path: '/bookings',
  handler: 'clinical-interview/bookings-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: BookingRequest,
} as const satisfies Operation;
export const listBookings = {
  operationId: 'listBookings',
  family: 'clinical-interview',
  method: 'GET',
  path: '/bookings',
  handler: 'clinical-interview/bookings-list',
  auth: 'bearer',
  contract: 'spec',
  query: BookingsQuery,
} as const satisfies Operation;
export const getBooking = {
  operationId: 'getBooking',
  family: 'clinical-interview',
  method: 'GET',
  path: '/bookings/{id}',
  handler: 'clinical-interview/bookings-get',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const downloadInterviewReport = {
  operationId: 'downloadInterviewReport',
  family: 'clinical-interview',
  method: 'GET',
  path: '/bookings/{id}/interview-report',
  handler: 'clinical-interview/bookings-report',
  auth: 'bearer',
  contract: 'spec',
  documents: ['interview-reports'],
} as const satisfies Operation;
// Public pages: the link's token is the credential.
export const showBookingPage = {
  operationId: 'showBookingPage',
  family: 'clinical-interview',
  method: 'GET',
  path: '/book/{token}',
  handler: 'clinical-interview/booking-page-show',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitBookingPage = {
  operationId: 'submitBookingPage',
  family: 'clinical-interview',
  method: 'POST',
  path: '/book/{token}',
  handler: 'clinical-interview/booking-page-submit',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const showPaymentPage = {
  operationId: 'showPaymentPage',
  family: 'clinical-interview',
  method: 'GET',
  path: '/pay/{token}',
  handler: 'clinical-interview/payment-page-show',
  auth: 'none',
  contract: 'project',
  query: PaymentPageQuery,
} as const satisfies Operation;
export const submitPaymentPage = {
  operationId: 'submitPaymentPage',
  family: 'clinical-interview',
  method: 'POST',
  path: '/pay/{token}',
  handler: 'clinical-interview/payment-page-submit',
  auth: 'none',
  contract: 'project',
  stripe: true,
} as const satisfies Operation;
