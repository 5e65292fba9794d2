import { PageQuery } from '../schemas/fields.js';
import { BookingInviteRequest } from '../schemas/practical-training-public.js';
import { familyOperations } from './operation.js';

/**
 * The practical training family's booking invites, certificates and the
 * candidate's pages (design/practical-training.md sections 6 and 7); merged
 * into the family's operations in ./index.ts.
 */
export const practicalTrainingPublic = familyOperations('practical-training', {
  createBookingInvite: { method: 'POST', path: '/booking-invites', handler: 'practical-training/invites-create', auth: 'bearer', contract: 'spec', idempotent: true, body: BookingInviteRequest },
  listBookingInvites: { method: 'GET', path: '/booking-invites', handler: 'practical-training/invites-list', auth: 'bearer', contract: 'spec', query: PageQuery },
  getBookingInvite: { method: 'GET', path: '/booking-invites/{id}', handler: 'practical-training/invites-get', auth: 'bearer', contract: 'spec' },
  downloadCertificate: { method: 'GET', path: '/bookings/{id}/certificate', handler: 'practical-training/certificate-download', auth: 'bearer', contract: 'spec' },
  // Public pages: the link's token is the credential.
  showInvitePage: { method: 'GET', path: '/invite/{token}', handler: 'practical-training/invite-page-show', auth: 'none', contract: 'project' },
  submitInvitePage: { method: 'POST', path: '/invite/{token}', handler: 'practical-training/invite-page-book', auth: 'none', contract: 'project' },
  holdInviteSeat: { method: 'POST', path: '/invite/{token}/hold', handler: 'practical-training/invite-page-hold', auth: 'none', contract: 'project' },
  releaseInviteSeat: { method: 'POST', path: '/invite/{token}/release', handler: 'practical-training/invite-page-release', auth: 'none', contract: 'project' },
  showBookingPage: { method: 'GET', path: '/book/{token}', handler: 'practical-training/booking-page-show', auth: 'none', contract: 'project' },
  submitBookingPage: { method: 'POST', path: '/book/{token}', handler: 'practical-training/booking-page-submit', auth: 'none', contract: 'project' },
  showPaymentPage: { method: 'GET', path: '/pay/{token}', handler: 'practical-training/pay-show', auth: 'none', contract: 'project' },
  submitPaymentPage: { method: 'POST', path: '/pay/{token}', handler: 'practical-training/pay-submit', auth: 'none', contract: 'project' },
});
