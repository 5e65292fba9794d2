import { InvitePageQuery, PageQuery, PaymentPageQuery } from '../schemas/fields.js';
import { BookingInviteRequest } from '../schemas/practical-training-public.js';
import type { Operation } from './operation.js';

/**
 * The practical training family's booking invites, certificates and the
 * candidate's pages; merged
 * into the family's operations in ./index.ts.
 */
export const createBookingInvite = {
  operationId: 'createBookingInvite',
  family: 'practical-training',
  method: 'POST',
  path: '/booking-invites',
  handler: 'practical-training/invites-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: BookingInviteRequest,
} as const satisfies Operation;
export const listBookingInvites = {
  operationId: 'listBookingInvites',
  family: 'practical-training',
  method: 'GET',
  path: '/booking-invites',
  handler: 'practical-training/invites-list',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
} as const satisfies Operation;
export const getBookingInvite = {
  operationId: 'getBookingInvite',
  family: 'practical-training',
  method: 'GET',
  path: '/booking-invites/{id}',
  handler: 'practical-training/invites-get',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const downloadCertificate = {
  operationId: 'downloadCertificate',
  family: 'practical-training',
  method: 'GET',
  path: '/bookings/{id}/certificate',
  handler: 'practical-training/certificate-download',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
// Public pages: the link's token is the credential.
export const showInvitePage = {
  operationId: 'showInvitePage',
  family: 'practical-training',
  method: 'GET',
  path: '/invite/{token}',
  handler: 'practical-training/invite-page-show',
  query: InvitePageQuery,
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitInvitePage = {
  operationId: 'submitInvitePage',
  family: 'practical-training',
  method: 'POST',
  path: '/invite/{token}',
  handler: 'practical-training/invite-page-book',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const holdInviteSeat = {
  operationId: 'holdInviteSeat',
  family: 'practical-training',
  method: 'POST',
  path: '/invite/{token}/hold',
  handler: 'practical-training/invite-page-hold',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const releaseInviteSeat = {
  operationId: 'releaseInviteSeat',
  family: 'practical-training',
  method: 'POST',
  path: '/invite/{token}/release',
  handler: 'practical-training/invite-page-release',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const showBookingPage = {
  operationId: 'showBookingPage',
  family: 'practical-training',
  method: 'GET',
  path: '/book/{token}',
  handler: 'practical-training/booking-page-show',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitBookingPage = {
  operationId: 'submitBookingPage',
  family: 'practical-training',
  method: 'POST',
  path: '/book/{token}',
  handler: 'practical-training/booking-page-submit',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const showPaymentPage = {
  operationId: 'showPaymentPage',
  family: 'practical-training',
  method: 'GET',
  path: '/pay/{token}',
  handler: 'practical-training/pay-show',
  auth: 'none',
  contract: 'project',
  query: PaymentPageQuery,
} as const satisfies Operation;
export const submitPaymentPage = {
  operationId: 'submitPaymentPage',
  family: 'practical-training',
  method: 'POST',
  path: '/pay/{token}',
  handler: 'practical-training/pay-submit',
  auth: 'none',
  contract: 'project',
  stripe: true,
} as const satisfies Operation;
