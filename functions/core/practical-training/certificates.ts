import { changeBooking } from '../bookings/change.js';
import { findBookingIn, getBookingItem } from '../bookings/records.js';
import { A4, TextDocument } from '../documents/pdf-text.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { wallClock } from '../platform/time.js';
import { certificateAvailable, PRACTICAL_BOOKINGS, type PracticalBooking } from './bookings.js';
import { loadCatalogue, PRACTICAL_FAMILY } from './catalogue.js';

/**
 * Completion certificates (design practical-training section 6): issued by an
 * operator for an attended, passed booking; downloadable once issued and paid
 * for; rendered on request with the project's PDF writer, never stored.
 */

export interface Certificate {
  number: string;
  issued_at: string;
  /** A calendar date: the event's date plus the course's validity. */
  valid_until: string;
}

export type CertificateState = 'available' | 'not_issued' | 'payment_pending';

/** `certificate_available` (the booking's view) is this state being `available`: issued, and not waiting for the candidate's payment (decision 8). */
export const certificateState = (b: Pick<PracticalBooking, 'certificate' | 'pay_status'>): CertificateState =>
  !b.certificate ? 'not_issued' : certificateAvailable(b) ? 'available' : 'payment_pending';

/** `PT-<yyyy>-<nnnnnn>`: the year of issue and that year's counter. */
export const certificateNumber = (year: number, n: number): string => `PT-${year}-${String(n).padStart(6, '0')}`;

/** `date` plus `months`, on the last day of the month when that month is shorter (31 January + 1 month: 28 or 29 February). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Why the operator may not issue now, if not: only for `attended` + `passed`, once. */
function issueRefusal(b: PracticalBooking): DomainError | undefined {
  if (b.booking_status === 'cancelled') return new DomainError('invalid-state', `Booking ${b.id} is cancelled`);
  if (b.attendance !== 'attended' || b.result !== 'passed') {
    return new DomainError('invalid-state', `A certificate needs attendance "attended" and result "passed"; booking ${b.id} has ${b.attendance} and ${b.result}`);
  }
  return undefined;
}

/**
 * The operator issues the certificate of a booking (`npm run ops`). The
 * booking changes once, conditional on it as read; when it is also paid for,
 * the same transaction writes `booking.certificate_available`. Issuing again
 * answers the certificate already issued, and writes nothing.
 */
export async function issueCertificate(deps: Deps, bookingId: number): Promise<PracticalBooking> {
  const booking = await findBookingIn<PracticalBooking>(deps, PRACTICAL_FAMILY, bookingId);
  if (booking.certificate) return booking;
  const refusal = issueRefusal(booking);
  if (refusal) throw refusal;
  const { courses } = await loadCatalogue(deps);
  const course = courses.find((c) => c.id === booking.course.id);
  if (!course) throw new Error(`Booking ${bookingId} refers to a missing course ${booking.course.id}`);
  const now = deps.clock();
  const year = Number(wallClock(now, deps.config.serviceTimeZone).date.slice(0, 4));
  // A number lost to a failed write leaves a gap in the year's series, never a duplicate.
  const number = certificateNumber(year, await nextId(deps, PRACTICAL_FAMILY, `certificate-${year}`));
  const certificate: Certificate = { number, issued_at: now.toISOString(), valid_until: addMonths(booking.date, course.certificate_validity_months) };
  const event = certificateAvailable({ certificate, pay_status: booking.pay_status }) ? 'booking.certificate_available' : undefined;
  return changeBooking(deps, PRACTICAL_BOOKINGS, booking, { certificate }, event);
}

export function renderCertificatePdf(input: { agency: string; booking: PracticalBooking; timeZone: string }): Buffer {
  const { booking: b, agency } = input;
  const cert = b.certificate!;
  const candidate = `${b.candidate.first_name} ${b.candidate.last_name}`;
  const location = b.training_event.location;
  const longDate = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const doc = new TextDocument(
    { ...A4, margin: 64 },
    { title: `Certificate ${cert.number}`, author: 'Agency API', subject: `${b.course.name}: ${candidate}`, creator: 'Agency API', created: new Date(cert.issued_at) },
  );
  doc.text('Certificate of completion', { weight: 'bold', size: 24, color: '#000' }).moveDown(1.5);
  doc.text('This is to certify that', { weight: 'regular', size: 12, color: '#444' }).moveDown(0.3);
  doc.text(candidate, { weight: 'bold', size: 20, color: '#000' }).moveDown(0.6);
  doc.text('attended and passed', { weight: 'regular', size: 12, color: '#444' }).moveDown(0.3);
  doc.text(`${b.course.name}(${b.course.code})`, { weight: 'bold', size: 16, color: '#000' }).moveDown(0.6);
  doc.text(`on ${longDate(b.date)} at ${location.name}, ${location.town}.`, { weight: 'regular', size: 12, color: '#000' }).moveDown(1.5);
  const row = (label: string, value: string) => doc.text(`${label}: ${value}`, { weight: 'regular', size: 11, color: '#000' });
  row('Certificate number', cert.number);
  row('Issued', longDate(wallClock(new Date(cert.issued_at), input.timeZone).date));
  row('Valid until', longDate(cert.valid_until));
  doc.moveDown(2).text(`Booked by ${agency} · booking ${b.id}`, { weight: 'regular', size: 8, color: '#666' });
  return doc.toBuffer();
}

/**
 * GET /bookings/{id}/certificate: the caller's booking's certificate, rendered
 * now. Not issued, or issued but unpaid: certificate-unavailable with `reason`.
 */
export async function certificatePdf(deps: Deps, client: { clientId: string; name: string }, bookingId: number): Promise<{ number: string; pdf: Buffer }> {
  const booking = await getBookingItem<PracticalBooking>(deps, client.clientId, bookingId, PRACTICAL_FAMILY);
  if (!booking) throw new DomainError('not-found', `No booking ${bookingId}`);
  const state = certificateState(booking);
  if (state !== 'available') {
    const detail = state === 'not_issued' ? `Booking ${bookingId} has no certificate yet: it is issued once the candidate attended and passed` : `The certificate of booking ${bookingId} is withheld until the candidate has paid`;
    throw new DomainError('certificate-unavailable', detail, { reason: state });
  }
  const pdf = renderCertificatePdf({ agency: client.name, booking, timeZone: deps.config.serviceTimeZone });
  return { number: booking.certificate!.number, pdf };
}
