import type { BookingFamily, ChangingKind } from '../bookings/kind.js';
import { clinicalBookings } from '../clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../clinical-interview/catalog.js';
import type { FamilyId } from '../platform/families.js';
import { PRACTICAL_CHANGING } from '../practical-training/booking-changes.js';
import { VLS_CHANGING } from '../virtual-life-support/booking-changes.js';

/**
 * Each booking family's kind, for what serves every family alike: the
 * payment pages' Stripe events and the payment-expiry sweep. A family that
 * takes bookings and is missing here does not compile.
 */
export const BOOKING_KINDS: Record<BookingFamily, ChangingKind<never>> = {
  [CLINICAL_FAMILY]: clinicalBookings(CLINICAL_FAMILY) as unknown as ChangingKind<never>,
  'practical-training': PRACTICAL_CHANGING as unknown as ChangingKind<never>,
  'virtual-life-support': VLS_CHANGING as unknown as ChangingKind<never>,
};

/** The booking kind of a family, if it takes bookings. */
export const bookingKindOf = (family: FamilyId): ChangingKind<never> | undefined =>
  Object.hasOwn(BOOKING_KINDS, family) ? BOOKING_KINDS[family as BookingFamily] : undefined;
