/**
 * What a booking says of itself in every booking family: how it is paid,
 * its status, its session, attendance, result and payment. Imports nothing
 * that talks to AWS, so schemas and the OpenAPI documents can use it.
 */

export const PAY_OPTIONS = ['credits', 'balance', 'invoice', 'candidate_pays'] as const;
export type PayOption = (typeof PAY_OPTIONS)[number];

export const BOOKING_STATUSES = ['booked', 'pending_payment', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** A clinical interview's or a training booking's session: scheduled until it is held or cancelled. */
export const SESSION_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
export const ATTENDANCES = ['pending', 'attended', 'no_show'] as const;
/** A course booking's result. */
export const RESULTS = ['pending', 'passed', 'not_passed'] as const;
export const PAY_STATUSES = ['completed', 'invoiced', 'pending', 'refunded'] as const;
