import type { BookingFamily, BookingKind } from '../bookings/kind.js';
import { clinicalBookings } from '../clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../clinical-interview/catalog.js';
import type { FamilyId } from '../platform/families.js';
import { PRACTICAL_BOOKINGS } from '../practical-training/bookings.js';
import { VLS_BOOKINGS } from '../virtual-life-support/bookings.js';

/**
 * Each booking family's kind, for what serves every family alike: the
 * payment pages' Stripe events and the payment-expiry sweep. A family that
 * takes bookings and is missing here does not compile.
 */
export const BOOKING_KINDS: Record<BookingFamily, BookingKind<never>> = {
  [CLINICAL_FAMILY]: clinicalBookings(CLINICAL_FAMILY) as unknown as BookingKind<never>,
  'practical-training': PRACTICAL_BOOKINGS as unknown as BookingKind<never>,
  'virtual-life-support': VLS_BOOKINGS as unknown as BookingKind<never>,
};

/** The booking kind of a family, if it takes bookings. */
export const bookingKindOf = (family: FamilyId): BookingKind<never> | undefined =>
  Object.hasOwn(BOOKING_KINDS, family) ? BOOKING_KINDS[family as BookingFamily] : undefined;
