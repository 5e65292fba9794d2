import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { findBooking, markReportAvailable } from '../bookings/booking-admin.js';
import { requireEnv } from '../platform/config.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { MAX_REPORT_BYTES, reportKey } from './reports.js';

/** Operators attach interview reports (the ops CLI); the API only reads them (reports.ts). */

// Locally (AWS_ENDPOINT_URL_S3 set) the emulator wants path-style addresses.
export const createS3Client = (): S3Client => new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });

export async function attachReport(deps: Deps, s3: S3Client, bookingId: number, pdf: Buffer, bucket = requireEnv('REPORTS_BUCKET')) {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new DomainError('invalid-state', 'The report must be a PDF file');
  if (pdf.length > MAX_REPORT_BYTES) throw new DomainError('invalid-state', `The report must be at most ${MAX_REPORT_BYTES} bytes`);
  const booking = await findBooking(deps, bookingId);
  if (booking.interview_status !== 'completed') throw new DomainError('invalid-state', `Complete the interview of booking ${bookingId} first`);
  const key = reportKey(booking.client_id, bookingId);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: pdf, ContentType: 'application/pdf' }));
  return markReportAvailable(deps, bookingId, key);
}
