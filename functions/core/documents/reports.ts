import { getBookingItem } from '../bookings/bookings.js';
import { requireEnv } from '../platform/config.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { ObjectReader } from './s3-get.js';

/** Interview reports: PDFs in the reports bucket, one per booking (uploads: report-uploads.ts). */

export const reportKey = (clientId: string, bookingId: number) => `interview-reports/${clientId}/${bookingId}.pdf`;

/** Lambda responses are limited to 6 MB, base64 included. */
export const MAX_REPORT_BYTES = 4 * 1024 * 1024;

/** The caller's report; not-found until it is attached, and for another client's booking. */
export async function downloadReport(deps: Deps, readObject: ObjectReader, clientId: string, bookingId: number, bucket = requireEnv('REPORTS_BUCKET')): Promise<Buffer> {
  const booking = await getBookingItem(deps, clientId, bookingId);
  if (!booking?.interview_report_available || !booking.report_key) {
    throw new DomainError('not-found', `No interview report for booking ${bookingId}`);
  }
  return readObject(bucket, booking.report_key);
}
