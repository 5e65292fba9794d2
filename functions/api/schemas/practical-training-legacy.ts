import * as v from 'valibot';
import { daysBetween } from '../../core/platform/time.js';
import { LEGACY_SEARCH_DAYS as SEARCH_DAYS } from '../../core/platform/listing-windows.js';
import { calendarDate, listQuery, built } from './fields.js';

/** Request schemas of the practical training legacy family. */

type Search = { date?: string; from?: string; to?: string };
const oneDayOrRange = <T extends Search>(q: T): boolean => (q.date ? !q.from && !q.to : !!q.from && !!q.to);
const shortRange = <T extends Search>(q: T): boolean => !q.from || !q.to || (q.from <= q.to && daysBetween(q.from, q.to) < SEARCH_DAYS);

/** One `date`, or `from` and `to` (inclusive, at most 31 days): the days the training starts on, in the service time zone. */
export const LegacySearchQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      date: v.optional(v.pipe(calendarDate, v.description('Bookings whose training starts on this day (YYYY-MM-DD); or give `from` and `to`'))),
      from: v.optional(v.pipe(calendarDate, v.description('Bookings whose training starts on or after this day (with `to`)'))),
      to: v.optional(v.pipe(calendarDate, v.description(`Bookings whose training starts on or before this day; at most ${SEARCH_DAYS} days from \`from\``))),
      ...listQuery,
    }),
    v.forward(v.check(oneDayOrRange, 'Give `date`, or both `from` and `to`'), ['date']),
    v.forward(v.check(shortRange, `\`to\` must be on or after \`from\`, at most ${SEARCH_DAYS} days in all`), ['to']),
  ),
);
