import { certificateDownload, issueCertificateOf, type CertificateScheme } from '../documents/certificates.js';
import type { Deps } from '../platform/deps.js';
import { VLS_CHANGING } from './booking-changes.js';
import { VLS_BOOKINGS, type VlsBooking } from './bookings.js';
import { loadCourses } from './catalogue.js';

/**
 * Virtual life-support certificates, on the documents
 * engine's certificates: `VLS-<yyyy>-<nnnnnn>`, valid for the course's months
 * from the session's date; withheld while payment is pending, never for
 * unreturned kit.
 */

const scheme: CertificateScheme = {
  prefix: 'VLS',
  validityMonths: async (deps, b) => {
    const course = (await loadCourses(deps)).find((c) => c.id === b.course.id);
    if (!course) throw new Error(`Booking ${b.id} refers to a missing course ${b.course.id}`);
    return course.certificate_validity_months;
  },
};

export const issueVlsCertificate = (deps: Deps, bookingId: number): Promise<VlsBooking> => issueCertificateOf(deps, VLS_CHANGING, scheme, bookingId);

export const vlsCertificatePdf = (deps: Deps, client: { clientId: string; name: string }, bookingId: number) =>
  certificateDownload(deps, VLS_BOOKINGS, client, bookingId, () => ', live by video, on camera throughout, with a test at the end');
