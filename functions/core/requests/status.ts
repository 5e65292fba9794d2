import { addSeconds } from '../platform/clock.js';
import type { RequestStatus, StoredItem, StoredRequest } from './kind.js';

/** The engine's pure rules: statuses by the clock, and when a reminder is due. */

export const OPEN_STATUSES: readonly RequestStatus[] = ['pending', 'in_progress', 'awaiting_review'];
export const isOpen = (status: RequestStatus): boolean => OPEN_STATUSES.includes(status);

export const isExpired = (r: { expires_at: string }, now: Date): boolean => r.expires_at <= now.toISOString();

/** The request's status now: the clock decides expiry, whether or not the sweep has run; a request waiting for bookings does not expire. */
export function effectiveStatus<S extends RequestStatus>(r: { status: S; expires_at: string; waiting_for_bookings?: boolean }, now: Date): S | 'expired' {
  return isOpen(r.status) && isExpired(r, now) && !r.waiting_for_bookings ? 'expired' : r.status;
}

/** An item still waiting for its actor ends with its request: cancelled or expired. */
export function effectiveItemStatus<S extends string>(
  item: { status: S; expires_at: string },
  request: Pick<StoredRequest, 'status' | 'expires_at' | 'waiting_for_bookings'>,
  outstanding: readonly string[],
  now: Date,
): S | 'cancelled' | 'expired' {
  if (!outstanding.includes(item.status)) return item.status;
  if (request.status === 'cancelled') return 'cancelled';
  // Its items are all booked: they wait for the bookings' outcome past the request's time.
  if (request.waiting_for_bookings && isOpen(request.status)) return item.status;
  if (isExpired(item, now) || effectiveStatus(request, now) === 'expired') return 'expired';
  return item.status;
}

/** One reminder per actor per 24 hours. */
export const REMINDER_INTERVAL_SECONDS = 24 * 3600;

/** Is a reminder due to this item's actor now? Counted from the last reminder, or from when the link was sent. */
export function reminderDue(item: Pick<StoredItem, 'status' | 'last_reminder_sent_at' | 'sent_at'>, remindable: readonly string[], now: Date): boolean {
  if (!remindable.includes(item.status)) return false;
  return (item.last_reminder_sent_at ?? item.sent_at ?? '') <= addSeconds(now, -REMINDER_INTERVAL_SECONDS).toISOString();
}

/** Why an actor was not reminded: too soon after the last (or the link), or their item's status (answered, declined, closed…). */
export type ReminderWait = 'reminded_recently' | (string & {});

/**
 * When this item's actor can next be reminded (null: never, it is no longer
 * waiting or the request ends first) and, when not now, why. `status` is the
 * item's effective status.
 */
export function reminderOutlook(
  item: Pick<StoredItem, 'last_reminder_sent_at' | 'sent_at' | 'expires_at'> & { status: string },
  request: Pick<StoredRequest, 'expires_at'>,
  remindable: readonly string[],
  now: Date,
): { due: boolean; reason: ReminderWait | null; next_reminder_at: string | null } {
  if (!remindable.includes(item.status)) return { due: false, reason: item.status, next_reminder_at: null };
  const from = item.last_reminder_sent_at ?? item.sent_at;
  const at = from ? addSeconds(new Date(from), REMINDER_INTERVAL_SECONDS).toISOString() : now.toISOString();
  const ends = item.expires_at < request.expires_at ? item.expires_at : request.expires_at;
  const due = at <= now.toISOString();
  return { due, reason: due ? null : 'reminded_recently', next_reminder_at: due ? now.toISOString() : at < ends ? at : null };
}
