import { changeBooking } from '../bookings/change.js';
import type { BookingKind, BookingRecord, ChangingKind } from '../bookings/kind.js';
import { findBookingIn, getBookingItem } from '../bookings/records.js';
import type { EventKind } from '../events/kinds.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { addMonths, wallClock } from '../platform/time.js';
import { A4, TextDocument } from './pdf-text.js';

/**
 * Course certificates, for every course family (practical training, virtual
 * life-support): issued by an operator for an attended, passed booking;
 * downloadable once issued and paid for (decision 8); rendered on request
 * with the project's PDF writer, never stored.
 */

export interface Certificate {
  number: string;
  issued_at: string;
  /** A calendar date: the course day plus the course's validity. */
  valid_until: string;
}

/** What a booking needs to be certified. */
export interface CertifiableBooking extends BookingRecord {
  candidate: { first_name: string; last_name: string };
  course: { id: number; name: string; code?: string };
  /** The course day (service time zone). */
  date: string;
  attendance: string;
  result: string;
  certificate?: Certificate;
}

export type CertificateState = 'available' | 'not_issued' | 'payment_pending';

/** Issued, and not waiting for the candidate's payment. */
export const certificateAvailable = (b: Pick<CertifiableBooking, 'certificate' | 'pay_status'>): boolean => !!b.certificate && b.pay_status !== 'pending';

export const certificateState = (b: Pick<CertifiableBooking, 'certificate' | 'pay_status'>): CertificateState =>
  !b.certificate ? 'not_issued' : certificateAvailable(b) ? 'available' : 'payment_pending';

/** `<prefix>-<yyyy>-<nnnnnn>`: the family's prefix, the year of issue and that year's counter. */
export const numberOf = (prefix: string, year: number, n: number): string => `${prefix}-${year}-${String(n).padStart(6, '0')}`;

/** How a family numbers and dates its certificates. */
export interface CertificateScheme {
  prefix: string;
  validityMonths: (deps: Deps, b: CertifiableBooking) => Promise<number>;
}

/**
 * The operator issues the certificate of a booking: only for `attended` +
 * `passed`, once. The booking changes once, conditional on it as read; when
 * it is also paid for, the same transaction writes
 * `booking.certificate_available`. Issuing again answers the booking as it is.
 */
export async function issueCertificateOf<B extends CertifiableBooking>(
  deps: Deps,
  kind: ChangingKind<B>,
  scheme: CertificateScheme,
  bookingId: number,
): Promise<B> {
  const booking = await findBookingIn<B>(deps, kind.family, bookingId);
  if (booking.certificate) return booking;
  if (booking.booking_status === 'cancelled') throw new DomainError('invalid-state', `Booking ${booking.id} is cancelled`);
  if (booking.attendance !== 'attended' || booking.result !== 'passed') {
    throw new DomainError(
      'invalid-state',
      `A certificate needs attendance "attended" and result "passed"; booking ${booking.id} has ${booking.attendance} and ${booking.result}`,
    );
  }
  const now = deps.clock();
  const year = Number(wallClock(now, deps.config.serviceTimeZone).date.slice(0, 4));
  // A number lost to a failed write leaves a gap in the year's series, never a duplicate.
  const number = numberOf(scheme.prefix, year, await nextId(deps, kind.family, `certificate-${year}`));
  const certificate: Certificate = { number, issued_at: now.toISOString(), valid_until: addMonths(booking.date, await scheme.validityMonths(deps, booking)) };
  const event: EventKind | undefined = certificateAvailable({ certificate, pay_status: booking.pay_status }) ? 'booking.certificate_available' : undefined;
  return changeBooking(deps, kind, booking, { certificate } as Partial<B>, event);
}

const longDate = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The certificate page; `where` ends the "on <date>" line (" at Riverside, Leeds", " by live video"). */
export function renderCertificatePdf(input: { agency: string; booking: CertifiableBooking; where: string; timeZone: string }): Buffer {
  const { booking: b, agency } = input;
  const cert = b.certificate!;
  const candidate = `${b.candidate.first_name} ${b.candidate.last_name}`;
  const doc = new TextDocument(
    { ...A4, margin: 64 },
    {
      title: `Certificate ${cert.number}`,
      author: 'Agency API',
      subject: `${b.course.name}: ${candidate}`,
      creator: 'Agency API',
      created: new Date(cert.issued_at),
    },
  );
  doc.text('Certificate of completion', { weight: 'bold', size: 24, color: '#000' }).moveDown(1.5);
  doc.text('This is to certify that', { weight: 'regular', size: 12, color: '#444' }).moveDown(0.3);
  doc.text(candidate, { weight: 'bold', size: 20, color: '#000' }).moveDown(0.6);
  doc.text('attended and passed', { weight: 'regular', size: 12, color: '#444' }).moveDown(0.3);
  doc.text(b.course.code ? `${b.course.name}(${b.course.code})` : b.course.name, { weight: 'bold', size: 16, color: '#000' }).moveDown(0.6);
  doc.text(`on ${longDate(b.date)}${input.where}.`, { weight: 'regular', size: 12, color: '#000' }).moveDown(1.5);
  const row = (label: string, value: string) => doc.text(`${label}: ${value}`, { weight: 'regular', size: 11, color: '#000' });
  row('Certificate number', cert.number);
  row('Issued', longDate(wallClock(new Date(cert.issued_at), input.timeZone).date));
  row('Valid until', longDate(cert.valid_until));
  doc.moveDown(2).text(`Booked by ${agency} · booking ${b.id}`, { weight: 'regular', size: 8, color: '#666' });
  return doc.toBuffer();
}

/**
 * GET /bookings/{id}/certificate: the caller's booking's certificate,
 * rendered now. Not issued, or issued but unpaid: certificate-unavailable with `reason`.
 */
export async function certificateDownload<B extends CertifiableBooking>(
  deps: Deps,
  kind: BookingKind<B>,
  client: { clientId: string; name: string },
  bookingId: number,
  where: (b: B) => string,
): Promise<{ number: string; pdf: Buffer }> {
  const booking = await getBookingItem<B>(deps, client.clientId, bookingId, kind.family);
  if (!booking) throw new DomainError('not-found', `No booking ${bookingId}`);
  const state = certificateState(booking);
  if (state !== 'available') {
    const detail =
      state === 'not_issued'
        ? `Booking ${bookingId} has no certificate yet: it is issued once the candidate attended and passed`
        : `The certificate of booking ${bookingId} is withheld until the candidate has paid`;
    throw new DomainError('certificate-unavailable', detail, { reason: state });
  }
  const pdf = renderCertificatePdf({ agency: client.name, booking, where: where(booking), timeZone: deps.config.serviceTimeZone });
  return { number: booking.certificate!.number, pdf };
}
