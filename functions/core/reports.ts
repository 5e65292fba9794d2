import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { findBooking, markReportAvailable } from './booking-admin.js';
import { getBookingItem } from './bookings.js';
import { requireEnv } from './config.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';

/** Interview reports: PDFs in the reports bucket, one per booking. */

// Locally (AWS_ENDPOINT_URL_S3 set) the emulator wants path-style addresses.
export const createS3Client = (): S3Client => new S3Client({ forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3) });

export const reportKey = (clientId: string, bookingId: number) => `interview-reports/${clientId}/${bookingId}.pdf`;

export const MAX_REPORT_BYTES = 4 * 1024 * 1024;

export async function attachReport(deps: Deps, s3: S3Client, bookingId: number, pdf: Buffer, bucket = requireEnv('REPORTS_BUCKET')) {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new DomainError('invalid-state', 'The report must be a PDF file');
  // Lambda responses are limited to 6 MB, base64 included.
  if (pdf.length > MAX_REPORT_BYTES) throw new DomainError('invalid-state', `The report must be at most ${MAX_REPORT_BYTES} bytes`);
  const booking = await findBooking(deps, bookingId);
  if (booking.interview_status !== 'completed') throw new DomainError('invalid-state', `Complete the interview of booking ${bookingId} first`);
  const key = reportKey(booking.client_id, bookingId);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: pdf, ContentType: 'application/pdf' }));
  return markReportAvailable(deps, bookingId, key);
}

/** The caller's report; not-found until it is attached, and for another client's booking. */
export async function downloadReport(deps: Deps, s3: S3Client, clientId: string, bookingId: number, bucket = requireEnv('REPORTS_BUCKET')): Promise<Buffer> {
  const booking = await getBookingItem(deps, clientId, bookingId);
  if (!booking?.interview_report_available || !booking.report_key) {
    throw new DomainError('not-found', `No interview report for booking ${bookingId}`);
  }
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: booking.report_key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}
