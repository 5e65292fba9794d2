import { addDays, daysBetween, wallClock } from '../platform/time.js';
import type { MonitoringSettings } from './workers.js';

/**
 * When a monitored worker is checked next (design section 4): a day after the
 * last check (a week for `weekly`), daily from 14 days before `expires_on` to
 * the day after it, never while paused or off.
 */

const DAY_MS = 86_400_000;
export const EXPIRY_WINDOW_DAYS = 14;

export function nextCheckAfter(monitoring: MonitoringSettings, checkedAt: Date, expiresOn: string | null, timeZone: string): string | null {
  if (!monitoring.enabled) return null;
  const today = wallClock(checkedAt, timeZone).date;
  const inWindow = expiresOn !== null && daysBetween(today, expiresOn) <= EXPIRY_WINDOW_DAYS && daysBetween(expiresOn, today) <= 1;
  const step = monitoring.frequency === 'weekly' && !inWindow ? 7 : 1;
  let next = new Date(checkedAt.getTime() + step * DAY_MS);
  // Weekly, the window's first day is not skipped.
  if (step === 7 && expiresOn) {
    const windowStart = addDays(expiresOn, -EXPIRY_WINDOW_DAYS);
    const gap = daysBetween(today, windowStart);
    if (gap > 0 && gap < 7) next = new Date(checkedAt.getTime() + gap * DAY_MS);
  }
  if (monitoring.paused_until && wallClock(next, timeZone).date < monitoring.paused_until) next = new Date(`${monitoring.paused_until}T00:00:00Z`);
  return next.toISOString();
}

/** After a check that could not complete: try again in 15 minutes. */
export const RETRY_AFTER_MS = 15 * 60_000;
