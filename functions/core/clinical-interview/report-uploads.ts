import type { S3Client } from '@aws-sdk/client-s3';
import { findBooking, markReportAvailable } from './booking-admin.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { attachDocument, requireDocument } from '../documents/attach.js';
import { reportKey } from './reports.js';

/** Operators attach interview reports (the ops CLI); the API only reads them (reports.ts). */
export async function attachReport(deps: Deps, s3: S3Client, bookingId: number, pdf: Buffer, bucket?: string) {
  requireDocument('interview-reports', pdf, 'The report');
  const booking = await findBooking(deps, bookingId);
  if (booking.interview_status !== 'completed') throw new DomainError('invalid-state', `Complete the interview of booking ${bookingId} first`);
  const key = reportKey(booking.client_id, bookingId);
  await attachDocument(s3, 'interview-reports', key, pdf, 'The report', bucket);
  return markReportAvailable(deps, bookingId, key);
}
