import { getBookingItem } from './booking-api.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { documentKey } from '../documents/kinds.js';
import { readDocument } from '../documents/read.js';
import type { ObjectReader } from '../documents/signed-get.js';

/** Interview reports: documents of the `interview-reports` kind, one PDF per booking (uploads: report-uploads.ts). */

export const reportKey = (clientId: string, bookingId: number): string => documentKey('interview-reports', clientId, `${bookingId}.pdf`);

/** The caller's report; not-found until it is attached, and for another client's booking. */
export async function downloadReport(deps: Deps, readObject: ObjectReader, clientId: string, bookingId: number, bucket?: string): Promise<Buffer> {
  const booking = await getBookingItem(deps, clientId, bookingId);
  if (!booking?.interview_report_available || !booking.report_key) {
    throw new DomainError('not-found', `No interview report for booking ${bookingId}`);
  }
  return readDocument(readObject, 'interview-reports', booking.report_key, bucket);
}
