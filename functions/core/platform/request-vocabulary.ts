/**
 * The statuses of reference requests, references, request groups and their
 * items, and how many referees a request may name. Imports nothing that
 * talks to AWS, so schemas and the OpenAPI documents can use it.
 */

export const REQUEST_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'expired'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
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

export const MAX_REFEREES = 10;
