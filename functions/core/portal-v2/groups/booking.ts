import type { FamilyId } from '../../platform/families.js';
import type { GroupDeclaration, GroupItem } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { DEFAULT_RETENTION, itemType } from './common.js';

/**
 * The booking kinds: one item, a booking
 * invite of a course family. The candidate books through the family's own
 * invite e-mail and page; the item follows the invite (sent, opened), the
 * booking (booked) and its outcome (certified, or failed: cancelled, no-show,
 * not passed). Nobody reviews: the certificate is the answer.
 */

/** The item's data once it has an outcome: the booking's, as that family shows it. */
export interface BookingItemData {
  booking_id: number;
  attendance: string;
  result: string;
  certificate: { number: string; issued_at: string; valid_until: string } | null;
}

const COURSE_BOOKING = itemType('Course booking', [], false);

const pdfLines = (item: GroupItem): string[] => {
  const data = item.data as BookingItemData | null;
  return [
    COURSE_BOOKING.label,
    ...(item.booking_id ? [`Booking: ${item.booking_id}`] : []),
    ...(data ? [`Attendance: ${data.attendance}`, `Result: ${data.result}`] : []),
    ...(data?.certificate ? [`Certificate: ${data.certificate.number}, valid until ${data.certificate.valid_until}`] : []),
  ];
};

const bookingGroup = <K extends string>(kind: K, title: string, bookingFamily: FamilyId): GroupDeclaration<K> => ({
  kind,
  title,
  labels: STANDARD_LABELS,
  itemType: () => COURSE_BOOKING,
  plan: (_details, candidate) => [{ type: 'course_booking', actor: { mode: 'booking_invite', ...candidate } }],
  reviewed: false,
  bookingFamily,
  validUntil: (item) => (item.data as BookingItemData | null)?.certificate?.valid_until ?? null,
  retention: DEFAULT_RETENTION,
  pdfLines,
});

export const practicalTraining = bookingGroup('practical_training', 'Practical training request', 'practical-training');
export const lifeSupport = bookingGroup('life_support', 'Life support request', 'virtual-life-support');
