/**
 * The API's vocabulary: values that schemas, documents and rules share. This
 * module imports nothing that talks to AWS, so the OpenAPI and docs functions
 * can use it without carrying the SDK.
 */

export const PAY_OPTIONS = ['credits', 'balance', 'invoice', 'candidate_pays'] as const;
export type PayOption = (typeof PAY_OPTIONS)[number];

export const BOOKING_STATUSES = ['booked', 'pending_payment', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const DEFAULT_TIMEOUT_SECONDS = 10;

export const REQUEST_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const MAX_REFEREES = 10;

/** Listing practical training events covers at most this many days, by start. */
export const EVENT_RANGE_DAYS = 92;

/** The practical training legacy search covers at most this many days. */
export const LEGACY_SEARCH_DAYS = 31;
