import type { BookingKind } from '../../core/bookings/kind.js';
import { clinicalBookings } from '../../core/clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../../core/clinical-interview/catalog.js';
import type { FamilyId } from '../../core/platform/families.js';
import { PRACTICAL_BOOKINGS } from '../../core/practical-training/bookings.js';
import { VLS_BOOKINGS } from '../../core/virtual-life-support/bookings.js';

/** The booking kind of each family that takes candidates' payments (FamilySpec `candidatePayments`). */
export const PAYMENT_KINDS: Partial<Record<FamilyId, BookingKind<never>>> = {
  [CLINICAL_FAMILY]: clinicalBookings(CLINICAL_FAMILY) as unknown as BookingKind<never>,
  'practical-training': PRACTICAL_BOOKINGS as unknown as BookingKind<never>,
  'virtual-life-support': VLS_BOOKINGS as unknown as BookingKind<never>,
};
