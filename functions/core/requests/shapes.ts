/** What the engine stores on every request and item (SDK-free: request group declarations and the route table read it). */

/** Request statuses the engine knows; a kind uses a subset and labels them itself. */
export type RequestStatus = 'pending' | 'in_progress' | 'awaiting_review' | 'completed' | 'cancelled' | 'expired';

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
  created_at: string;
  updated_at: string;
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
