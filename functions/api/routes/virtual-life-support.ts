import { InvitePageQuery, PaymentPageQuery } from '../schemas/fields.js';
import { VlsBookingRequest, VlsBookingsQuery, VlsHoldRequest, VlsTimeslotsQuery } from '../schemas/virtual-life-support.js';
import type { Operation } from './operation.js';

/** The virtual life-support family's own operations; handlers under functions/http/virtual-life-support. */
export const listCourses = {
  operationId: 'listCourses',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/courses',
  handler: 'virtual-life-support/courses-list',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const listTimeslots = {
  operationId: 'listTimeslots',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/timeslots',
  handler: 'virtual-life-support/timeslots-list',
  auth: 'bearer',
  contract: 'spec',
  query: VlsTimeslotsQuery,
} as const satisfies Operation;
export const holdTimeslot = {
  operationId: 'holdTimeslot',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/timeslots/hold',
  handler: 'virtual-life-support/timeslots-hold',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  body: VlsHoldRequest,
} as const satisfies Operation;
export const releaseHold = {
  operationId: 'releaseHold',
  family: 'virtual-life-support',
  method: 'DELETE',
  path: '/timeslots/hold/{holdHash}',
  handler: 'virtual-life-support/timeslots-release',
  auth: 'bearer',
  contract: 'project',
} as const satisfies Operation;
export const createBooking = {
  operationId: 'createBooking',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/bookings',
  handler: 'virtual-life-support/bookings-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: VlsBookingRequest,
} as const satisfies Operation;
export const listBookings = {
  operationId: 'listBookings',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/bookings',
  handler: 'virtual-life-support/bookings-list',
  auth: 'bearer',
  contract: 'spec',
  query: VlsBookingsQuery,
} as const satisfies Operation;
export const getBooking = {
  operationId: 'getBooking',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/bookings/{id}',
  handler: 'virtual-life-support/bookings-get',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const downloadCertificate = {
  operationId: 'downloadCertificate',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/bookings/{id}/certificate',
  handler: 'virtual-life-support/certificate-download',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
// A portal v2 life_support request's invite page (decision 11): no JavaScript, the link's token is the credential.
export const showInvitePage = {
  operationId: 'showInvitePage',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/invite/{token}',
  handler: 'virtual-life-support/invite-page-show',
  query: InvitePageQuery,
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitInvitePage = {
  operationId: 'submitInvitePage',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/invite/{token}',
  handler: 'virtual-life-support/invite-page-book',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const holdInviteSeat = {
  operationId: 'holdInviteSeat',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/invite/{token}/hold',
  handler: 'virtual-life-support/invite-page-hold',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const releaseInviteSeat = {
  operationId: 'releaseInviteSeat',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/invite/{token}/release',
  handler: 'virtual-life-support/invite-page-release',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
// The agency's public booking link (GET /client/booking-url): the link's token is the credential.
export const showBookingPage = {
  operationId: 'showBookingPage',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/book/{token}',
  handler: 'virtual-life-support/booking-page-show',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitBookingPage = {
  operationId: 'submitBookingPage',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/book/{token}',
  handler: 'virtual-life-support/booking-page-submit',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
// The candidate's payment page for candidate_pays: the link's token is the credential.
export const showPaymentPage = {
  operationId: 'showPaymentPage',
  family: 'virtual-life-support',
  method: 'GET',
  path: '/pay/{token}',
  handler: 'virtual-life-support/pay-show',
  auth: 'none',
  contract: 'project',
  query: PaymentPageQuery,
} as const satisfies Operation;
export const submitPaymentPage = {
  operationId: 'submitPaymentPage',
  family: 'virtual-life-support',
  method: 'POST',
  path: '/pay/{token}',
  handler: 'virtual-life-support/pay-submit',
  auth: 'none',
  contract: 'project',
  stripe: true,
} as const satisfies Operation;
