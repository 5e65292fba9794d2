import type { FamilyId } from './families.js';

/**
 * The API's vocabulary: values that schemas, documents and rules share. This
 * module imports nothing that talks to AWS, so the OpenAPI and docs functions
 * can use it without carrying the SDK.
 */

export const PAY_OPTIONS = ['credits', 'balance', 'invoice', 'candidate_pays'] as const;
export type PayOption = (typeof PAY_OPTIONS)[number];

export const BOOKING_STATUSES = ['booked', 'pending_payment', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The event kinds each family can deliver (design section 7). */
export const EVENT_KINDS: Record<FamilyId, readonly string[]> = {
  'clinical-interview': [
    'booking.created',
    'booking.confirmed',
    'booking.rescheduled',
    'booking.cancelled',
    'booking.interview_completed',
    'booking.interview_report_available',
    'webhook.test',
  ],
  'portal-v2': [
    'reference_request.created',
    'reference.completed',
    'reference.declined',
    'reference_request.completed',
    'reference_request.cancelled',
    'reference_request.expired',
    'webhook.test',
  ],
};

export const DEFAULT_TIMEOUT_SECONDS = 10;

export const REQUEST_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const MAX_REFEREES = 10;
