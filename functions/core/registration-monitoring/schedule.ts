import { addDays, daysBetween, wallClock } from '../platform/time.js';
import type { MonitoringSettings } from './workers.js';

/**
 * When a monitored worker is checked next: a day after the
 * last check (a week for `weekly`), daily from 14 days before `expires_on` to
 * the day after it, never while paused or off. Pure rules: due.ts keeps the
 * due item where these put it.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
export const EXPIRY_WINDOW_DAYS = 14;

/**
 * Where in its hour a worker's scheduled check falls: the minute comes from
 * the worker's id, so workers added together are not all checked at once.
 */
export const spreadInHour = (instant: Date, workerId: number): Date =>
  new Date(Math.floor(instant.getTime() / HOUR_MS) * HOUR_MS + ((workerId * 37) % 60) * 60_000);

/** No scheduled check before `paused_until` (a calendar day, service time zone). */
function afterPause(monitoring: MonitoringSettings, next: Date, timeZone: string): Date {
  if (monitoring.paused_until && wallClock(next, timeZone).date < monitoring.paused_until) return new Date(`${monitoring.paused_until}T00:00:00Z`);
  return next;
}

export function nextCheckAfter(monitoring: MonitoringSettings, checkedAt: Date, expiresOn: string | null, timeZone: string, workerId = 0): string | null {
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
  return afterPause(monitoring, spreadInHour(next, workerId), timeZone).toISOString();
}

/**
 * After the settings change: off, none; never checked, at once (or when a
 * pause ends); otherwise the cadence from the last completed check, and at
 * once if that time has passed.
 */
export function nextCheckOnSettings(
  monitoring: MonitoringSettings,
  worker: { id: number; last_completed_at?: string; expires_on: string | null },
  now: Date,
  timeZone: string,
): string | null {
  if (!monitoring.enabled) return null;
  if (!worker.last_completed_at) return afterPause(monitoring, now, timeZone).toISOString();
  const next = nextCheckAfter(monitoring, new Date(worker.last_completed_at), worker.expires_on, timeZone, worker.id)!;
  return next < now.toISOString() ? afterPause(monitoring, now, timeZone).toISOString() : next;
}

/** After a check that could not complete: try again in 15 minutes. */
export const RETRY_AFTER_MS = 15 * 60_000;
