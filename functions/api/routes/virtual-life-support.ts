import { VlsBookingRequest, VlsBookingsQuery, VlsHoldRequest, VlsTimeslotsQuery } from '../schemas/virtual-life-support.js';
import { familyOperations } from './operation.js';

/** The virtual life-support family's own operations (design/virtual-life-support.md); handlers under functions/http/virtual-life-support. */
export const virtualLifeSupport = familyOperations('virtual-life-support', {
  listCourses: { method: 'GET', path: '/courses', handler: 'virtual-life-support/courses-list', auth: 'bearer', contract: 'spec' },
  listTimeslots: { method: 'GET', path: '/timeslots', handler: 'virtual-life-support/timeslots-list', auth: 'bearer', contract: 'spec', query: VlsTimeslotsQuery },
  holdTimeslot: { method: 'POST', path: '/timeslots/hold', handler: 'virtual-life-support/timeslots-hold', auth: 'bearer', contract: 'project', idempotent: true, body: VlsHoldRequest },
  releaseHold: { method: 'DELETE', path: '/timeslots/hold/{holdHash}', handler: 'virtual-life-support/timeslots-release', auth: 'bearer', contract: 'project' },
  createBooking: { method: 'POST', path: '/bookings', handler: 'virtual-life-support/bookings-create', auth: 'bearer', contract: 'spec', idempotent: true, body: VlsBookingRequest },
  listBookings: { method: 'GET', path: '/bookings', handler: 'virtual-life-support/bookings-list', auth: 'bearer', contract: 'spec', query: VlsBookingsQuery },
  getBooking: { method: 'GET', path: '/bookings/{id}', handler: 'virtual-life-support/bookings-get', auth: 'bearer', contract: 'spec' },
  downloadCertificate: { method: 'GET', path: '/bookings/{id}/certificate', handler: 'virtual-life-support/certificate-download', auth: 'bearer', contract: 'spec' },
  // A portal v2 life_support request's invite page (decision 11): no JavaScript, the link's token is the credential.
  showInvitePage: { method: 'GET', path: '/invite/{token}', handler: 'virtual-life-support/invite-page-show', auth: 'none', contract: 'project' },
  submitInvitePage: { method: 'POST', path: '/invite/{token}', handler: 'virtual-life-support/invite-page-book', auth: 'none', contract: 'project' },
  // The candidate's payment page for candidate_pays: the link's token is the credential.
  showPaymentPage: { method: 'GET', path: '/pay/{token}', handler: 'virtual-life-support/pay-show', auth: 'none', contract: 'project' },
  submitPaymentPage: { method: 'POST', path: '/pay/{token}', handler: 'virtual-life-support/pay-submit', auth: 'none', contract: 'project' },
});
