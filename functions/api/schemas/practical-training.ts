import * as v from 'valibot';
import { BOOKING_STATUSES, PAY_OPTIONS } from '../../core/platform/booking-vocabulary.js';
import { EVENT_RANGE_DAYS } from '../../core/platform/listing-windows.js';
import { CANDIDATE_FIELDS } from './clinical-interview.js';
import { calendarDate, email, idFromString, listQuery, name, nmcNumber, notes, positiveId, oneOf, built } from './fields.js';

/** Request schemas of the practical training family; the OpenAPI document is generated from these too. */

const flag = /* @__PURE__ */ built(() =>
  v.pipe(
    v.picklist(['true', 'false'], 'true or false'),
    v.transform((s) => s === 'true'),
  ),
);

const dateRange = <T extends { from?: string; to?: string }>(q: T) => !q.from || !q.to || q.from <= q.to;

export const TrainingEventsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      course_id: v.optional(v.pipe(idFromString, v.description('Only events of this course, from GET /courses'))),
      location_id: v.optional(v.pipe(idFromString, v.description('Only events at this location, from GET /locations'))),
      from: v.optional(v.pipe(calendarDate, v.description('Events starting on or after this day (YYYY-MM-DD); today if left out'))),
      to: v.optional(v.pipe(calendarDate, v.description(`Events starting on or before this day; ${EVENT_RANGE_DAYS} days at most after \`from\``))),
      available_only: v.optional(v.pipe(flag, v.description('`true`: only events with a seat to hold now'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

export const SeatHoldRequest = /* @__PURE__ */ built(() =>
  v.object({
    training_event_id: positiveId,
  }),
);

const ATTENDANCES = ['pending', 'attended', 'no_show'] as const;

/** The clinical booking request; `nmc_number` optional (carers have none), checked as clinical when given. */
export const PracticalBookingRequest = /* @__PURE__ */ built(() =>
  v.object({
    hold_hash: v.pipe(v.string('Required, as a string'), v.trim(), v.minLength(1, 'Required'), v.maxLength(100)),
    ...CANDIDATE_FIELDS,
    nmc_number: v.optional(nmcNumber),
    pay_option: oneOf(PAY_OPTIONS),
    agency_contact_name: v.optional(name()),
    agency_contact_email: v.optional(email),
  }),
);

export const PracticalBookingsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      status: v.optional(v.pipe(oneOf(BOOKING_STATUSES), v.description('Only bookings in this status'))),
      attendance: v.optional(v.pipe(oneOf(ATTENDANCES), v.description('Only bookings with this attendance'))),
      course_id: v.optional(v.pipe(idFromString, v.description('Only bookings of this course'))),
      training_event_id: v.optional(v.pipe(idFromString, v.description('Only bookings on this training event'))),
      from: v.optional(v.pipe(calendarDate, v.description('Only training on or after this day (YYYY-MM-DD)'))),
      to: v.optional(v.pipe(calendarDate, v.description('Only training on or before this day (YYYY-MM-DD)'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

export const NoShowsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      from: v.optional(v.pipe(calendarDate, v.description('Only training on or after this day (YYYY-MM-DD)'))),
      to: v.optional(v.pipe(calendarDate, v.description('Only training on or before this day (YYYY-MM-DD)'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

/** The body may be left out: `{}`. */
export const CancelRequest = /* @__PURE__ */ built(() =>
  v.optional(v.object({ reason: v.optional(v.pipe(notes(500), v.description('Why, in a line or two; shown on the booking'))) }), {}),
);
