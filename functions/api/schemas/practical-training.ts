import * as v from 'valibot';
import { calendarDate, idFromString, listQuery } from './fields.js';

/** Request schemas of the practical training family; the OpenAPI document is generated from these too. */

/** Listing events covers at most this many days by start. */
export const MAX_EVENT_RANGE_DAYS = 92;

const flag = v.pipe(v.picklist(['true', 'false'], 'true or false'), v.transform((s) => s === 'true'));

export const TrainingEventsQuery = v.pipe(
  v.object({
    course_id: v.optional(idFromString),
    location_id: v.optional(idFromString),
    from: v.optional(calendarDate),
    to: v.optional(calendarDate),
    available_only: v.optional(flag),
    ...listQuery,
  }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, '`to` must not be before `from`'),
);
