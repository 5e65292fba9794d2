/**
 * Wall-clock time in the service time zone (Europe/London by default). Slot
 * dates and times are wall clock; instants are stored as UTC ISO strings and
 * shown with their UTC offset, DST-correct.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: Date, timeZone: string) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    second: parts.second!,
    weekday: parts.weekday!,
  };
}

/** Minutes east of UTC that `timeZone` is at `instant`. */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  const asUtc = Date.parse(`${p.date}T${p.time}:${p.second}Z`);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the wall clock in `timeZone` shows `date` `time`, or
 * undefined for a time the clocks skip (the spring-forward gap). A time that
 * happens twice (autumn) resolves to the first.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date | undefined {
  // Six time-zone conversions each, for every slot of every listing: the answers never change, so keep them.
  const key = `${date}T${time} ${timeZone}`;
  if (!instants.has(key)) {
    if (instants.size >= 20_000) instants.clear();
    instants.set(key, findInstant(date, time, timeZone));
  }
  const found = instants.get(key);
  return found === undefined ? undefined : new Date(found);
}
const instants = new Map<string, number | undefined>();

function findInstant(date: string, time: string, timeZone: string): number | undefined {
  const naive = Date.parse(`${date}T${time}:00Z`);
  const candidates = new Set<number>();
  for (const probe of [naive - 86_400_000, naive, naive + 86_400_000]) {
    candidates.add(naive - offsetMinutes(new Date(probe), timeZone) * 60_000);
  }
  const matches = [...candidates]
    .filter((t) => {
      const p = partsIn(new Date(t), timeZone);
      return p.date === date && p.time === time;
    })
    .sort((a, b) => a - b);
  return matches[0];
}

/**
 * `2026-07-01T09:30:00+01:00`: the instant as the service's wall clock, with
 * its offset; with `milliseconds`, `2026-07-01T09:30:00.250+01:00` (a time a
 * client hands back to resume from must not lose what sets it apart).
 */
export function formatWithOffset(instant: Date | string, timeZone: string, options: { milliseconds?: boolean } = {}): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  // Two time-zone conversions each, for both ends of every slot a listing shows: the answers never change, so keep them.
  const key = `${at.getTime()} ${timeZone}${options.milliseconds ? ' ms' : ''}`;
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size >= 20_000) formatted.clear();
    text = formatInZone(at, timeZone, options.milliseconds);
    formatted.set(key, text);
  }
  return text;
}
const formatted = new Map<string, string>();

function formatInZone(at: Date, timeZone: string, milliseconds?: boolean): string {
  const p = partsIn(at, timeZone);
  const offset = offsetMinutes(at, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  const fraction = milliseconds ? `.${String(at.getUTCMilliseconds()).padStart(3, '0')}` : '';
  return `${p.date}T${p.time}:${p.second}${fraction}${sign}${hh}:${mm}`;
}

/** The wall-clock date, time and ISO weekday (1 = Monday) of an instant. */
export function wallClock(instant: Date, timeZone: string): { date: string; time: string; weekday: number } {
  const p = partsIn(instant, timeZone);
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(p.weekday) + 1;
  return { date: p.date, time: p.time, weekday };
}

/** ISO weekday (1 = Monday) of a calendar date; calendar dates have no zone. */
export function weekdayOf(date: string): number {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** `date` plus `months`, on the last day of the month when that month is shorter (31 January + 1 month: 28 or 29 February). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Dates more than this many days ahead are refused on every operation that takes one. */
export const HORIZON_DAYS = 400;

/** Is `date` past the booking horizon, counted from today in the service time zone? */
export const beyondHorizon = (date: string, now: Date, timeZone: string): boolean => date > lastBookableDay(now, timeZone);

/** The last date inside the booking horizon, counted from today in the service time zone. */
export const lastBookableDay = (now: Date, timeZone: string): string => addDays(wallClock(now, timeZone).date, HORIZON_DAYS);

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

export const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

export const timeOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A real calendar date in YYYY-MM-DD (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Dates as people read them, the one style of every page, e-mail and PDF:
 * "Wednesday 2 December 2026" for a calendar date (YYYY-MM-DD). Spelled out
 * here rather than by the runtime's locale data, whose commas vary by version.
 * Without the year where the page says it once nearby (a row of day links).
 */
export const readableDate = (date: string, options: { year?: boolean } = {}): string =>
  `${WEEKDAY_NAMES[weekdayOf(date) - 1]} ${Number(date.slice(8, 10))} ${MONTH_NAMES[Number(date.slice(5, 7)) - 1]}${options.year === false ? '' : ` ${date.slice(0, 4)}`}`;

/** "Wednesday 2 December 2026 at 10:00": a wall-clock date and time. */
export const readableWallTime = (date: string, time: string): string => `${readableDate(date)} at ${time}`;

const instantOf = (instant: Date | string): Date => (typeof instant === 'string' ? new Date(instant) : instant);

/** "Wednesday 2 December 2026": the day of an instant on the service's wall clock. */
export const readableDay = (instant: Date | string, timeZone: string): string => readableDate(wallClock(instantOf(instant), timeZone).date);

/** "Wednesday 2 December 2026 at 10:00": an instant as people read it, on the service's wall clock. */
export function readableTime(instant: Date | string, timeZone: string): string {
  const { date, time } = wallClock(instantOf(instant), timeZone);
  return readableWallTime(date, time);
}

export const isWorkingDay = (date: string, holidays: readonly string[]): boolean => weekdayOf(date) <= 5 && !holidays.includes(date);

/** The `n`th working day after `date` (before it for a negative `n`): Monday to Friday, less `holidays` (Monday → Thursday for 3). */
export function addWorkingDays(date: string, n: number, holidays: readonly string[]): string {
  const step = Math.sign(n);
  let day = date;
  for (let counted = 0; counted < Math.abs(n);) {
    day = addDays(day, step);
    if (isWorkingDay(day, holidays)) counted++;
  }
  return day;
}
