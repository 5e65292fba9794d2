/**
 * The API's vocabulary: values that schemas, documents and rules share. This
 * module imports nothing that talks to AWS, so the OpenAPI and docs functions
 * can use it without carrying the SDK.
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
/** A reference's status, as its request's page and the API show it. */
export const REFERENCE_STATUSES = ['pending', 'sent', 'opened', 'completed', 'declined', 'cancelled', 'expired'] as const;
/** A request group's request (the engine's status, `expired` by the clock). */
export const GROUP_REQUEST_STATUSES = ['pending', 'in_progress', 'awaiting_review', 'completed', 'cancelled', 'expired'] as const;
/** An item of a request group. */
export const ITEM_STATUSES = [
  'requested',
  'sent',
  'opened',
  'submitted',
  'accepted',
  'rejected',
  'confirmed',
  'denied',
  'booked',
  'certified',
  'failed',
  'cancelled',
  'expired',
] as const;
/** What a professional register says of a registration, normalised across registers. */
export const REGISTRATION_STATUSES = [
  'registered',
  'registered_without_licence',
  'not_practising',
  'lapsed',
  'suspended',
  'interim_suspension',
  'removed',
  'voluntarily_removed',
  'not_found',
] as const;

export const DEFAULT_TIMEOUT_SECONDS = 10;

export const REQUEST_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const MAX_REFEREES = 10;

/** Listing practical training events covers at most this many days, by start. */
export const EVENT_RANGE_DAYS = 92;

/** The practical training legacy search covers at most this many days. */
export const LEGACY_SEARCH_DAYS = 31;
