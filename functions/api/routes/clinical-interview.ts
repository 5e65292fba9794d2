import { BookingRequest, BookingsQuery, HoldRequest, TimeslotsQuery } from '../schemas/clinical-interview.js';
import { familyOperations } from './operation.js';

/** The clinical interview family's own operations (design section 5); handlers under functions/http/clinical-interview. */
export const clinicalInterview = familyOperations('clinical-interview', {
  listInterviewTypes: { method: 'GET', path: '/interview-types', handler: 'clinical-interview/interview-types-list', auth: 'bearer', contract: 'project' },
  listTimeslots: { method: 'GET', path: '/timeslots', handler: 'clinical-interview/timeslots-list', auth: 'bearer', contract: 'spec', query: TimeslotsQuery },
  holdTimeslot: { method: 'POST', path: '/timeslots/hold', handler: 'clinical-interview/timeslots-hold', auth: 'bearer', contract: 'spec', idempotent: true, body: HoldRequest },
  releaseHold: { method: 'DELETE', path: '/timeslots/hold/{holdHash}', handler: 'clinical-interview/timeslots-release', auth: 'bearer', contract: 'spec' },
  createBooking: { method: 'POST', path: '/bookings', handler: 'clinical-interview/bookings-create', auth: 'bearer', contract: 'spec', idempotent: true, body: BookingRequest },
  listBookings: { method: 'GET', path: '/bookings', handler: 'clinical-interview/bookings-list', auth: 'bearer', contract: 'project', query: BookingsQuery },
  getBooking: { method: 'GET', path: '/bookings/{id}', handler: 'clinical-interview/bookings-get', auth: 'bearer', contract: 'project' },
  downloadInterviewReport: {
    method: 'GET',
    path: '/bookings/{id}/interview-report',
    handler: 'clinical-interview/bookings-report',
    auth: 'bearer',
    contract: 'project',
    documents: ['interview-reports'],
  },
  // Public pages: the link's token is the credential.
  showBookingPage: { method: 'GET', path: '/book/{token}', handler: 'clinical-interview/booking-page-show', auth: 'none', contract: 'project' },
  submitBookingPage: { method: 'POST', path: '/book/{token}', handler: 'clinical-interview/booking-page-submit', auth: 'none', contract: 'project' },
  showPaymentPage: { method: 'GET', path: '/pay/{token}', handler: 'clinical-interview/payment-page-show', auth: 'none', contract: 'project' },
  submitPaymentPage: { method: 'POST', path: '/pay/{token}', handler: 'clinical-interview/payment-page-submit', auth: 'none', contract: 'project' },
});
