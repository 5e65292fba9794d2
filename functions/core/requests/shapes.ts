import type { GROUP_REQUEST_STATUSES } from '../platform/request-vocabulary.js';
/** What the engine stores on every request and item (SDK-free: request group declarations and the route table read it). */

/** Request statuses the engine knows; a kind uses a subset and labels them itself. */
export type RequestStatus = (typeof GROUP_REQUEST_STATUSES)[number];

/** What the engine reads and writes on every request. */
export interface StoredRequest {
  id: number;
  uuid: string;
  client_id: string;
  candidate_id: number;
  status: RequestStatus;
  expires_at: string;
  /** The public base URL the request was made through: links hang off it. */
  public_base: string;
  /** Bumped by every change; each change is conditioned on the version it read. */
  version: number;
  /**
   * A booking kind whose outstanding items are all booked waits for the
   * bookings' outcome: it does not expire.
   */
  waiting_for_bookings?: boolean;
  created_at: string;
  updated_at: string;
}

/** Where a booking invite (and the booking made with it) came from: a request item of portal v2. */
export interface RequestSource {
  kind: string;
  request_id: number;
  item_id: number;
}

/** What the engine reads and writes on every item (a reference is an item). */
export interface StoredItem {
  id: number;
  uuid: string;
  client_id: string;
  status: string;
  sent_at: string | null;
  expires_at: string;
  reminder_count: number;
  last_reminder_sent_at: string | null;
  created_at: string;
  updated_at: string;
}
