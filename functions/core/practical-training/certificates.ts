import { addMonths } from '../platform/time.js';
import {
  certificateDownload,
  certificateState,
  issueCertificateOf,
  numberOf,
  type Certificate,
  type CertificateScheme,
  type CertificateState,
} from '../documents/certificates.js';
import type { Deps } from '../platform/deps.js';
import { PRACTICAL_CHANGING } from './booking-changes.js';
import { PRACTICAL_BOOKINGS, type PracticalBooking } from './bookings.js';
import { loadCatalogue } from './catalogue.js';

/**
 * Practical training completion certificates, on the documents engine's certificates: numbered `PT-…`, valid
 * for the course's months from the event's date, "at" the venue.
 */

export { addMonths, certificateState, type Certificate, type CertificateState };

/** `PT-<yyyy>-<nnnnnn>`: the year of issue and that year's counter. */
export const certificateNumber = (year: number, n: number): string => numberOf('PT', year, n);

const scheme: CertificateScheme = {
  prefix: 'PT',
  validityMonths: async (deps, b) => {
    const course = (await loadCatalogue(deps)).courses.find((c) => c.id === b.course.id);
    if (!course) throw new Error(`Booking ${b.id} refers to a missing course ${b.course.id}`);
    return course.certificate_validity_months;
  },
};

/** The operator issues the certificate of an attended, passed booking (`npm run ops`). */
export const issueCertificate = (deps: Deps, bookingId: number): Promise<PracticalBooking> => issueCertificateOf(deps, PRACTICAL_CHANGING, scheme, bookingId);

/** GET /bookings/{id}/certificate. */
export const certificatePdf = (deps: Deps, client: { clientId: string; name: string }, bookingId: number) =>
  certificateDownload(deps, PRACTICAL_BOOKINGS, client, bookingId, (b) => ` at ${b.training_event.location.name}, ${b.training_event.location.town}`);
