import * as v from 'valibot';
import { EQUIPMENT_STATUSES } from '../../core/virtual-life-support/equipment-vocabulary.js';
import { BOOKING_STATUSES } from '../../core/platform/booking-vocabulary.js';
import { calendarDate, idFromString, listQuery, name, positiveId, timeOfDay, oneOf, built } from './fields.js';
import { PracticalBookingRequest } from './practical-training.js';

/** Request schemas of the virtual life-support family; the OpenAPI document is generated from these too. */

const dateRange = <T extends { from?: string; to?: string }>(q: T) => !q.from || !q.to || q.from <= q.to;

export const VlsTimeslotsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      course_id: v.pipe(idFromString, v.description('The course, from GET /courses')),
      from: v.optional(v.pipe(calendarDate, v.description('The first day to list (YYYY-MM-DD); today if left out'))),
      to: v.optional(v.pipe(calendarDate, v.description('The last day to list (YYYY-MM-DD); 13 days after `from` if left out; at most 31 days'))),
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

export const VlsHoldRequest = /* @__PURE__ */ built(() =>
  v.object({
    course_id: positiveId,
    date: calendarDate,
    time: timeOfDay,
  }),
);

// Either case and spaces around: the field is trimmed and upper-cased first, and the documents' pattern says what is accepted.
const UK_POSTCODE = /^\s*[A-Za-z]{1,2}\d[A-Za-z\d]? ?\d[A-Za-z]{2}\s*$/;

/** Where the manikin is posted; the postcode is checked after upper-casing. */
export const DeliveryAddress = /* @__PURE__ */ built(() =>
  v.object({
    line1: name(200),
    line2: v.optional(v.nullable(name(200))),
    town: name(),
    postcode: v.pipe(v.string('Required, as a string'), v.trim(), v.toUpperCase(), v.regex(UK_POSTCODE, 'A UK postcode, such as LS1 4AP')),
  }),
);

/** The clinical booking body (`nmc_number` optional, as in practical training) plus the delivery address of equipment courses. */
export const VlsBookingRequest = /* @__PURE__ */ built(() =>
  v.object({
    ...PracticalBookingRequest.entries,
    delivery_address: v.optional(
      v.pipe(DeliveryAddress, v.description('Required when the course has `equipment_required`; ignored (stored as null) otherwise')),
    ),
  }),
);

const ATTENDANCES = ['pending', 'attended', 'no_show'] as const;

export const VlsBookingsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      status: v.optional(v.pipe(oneOf(BOOKING_STATUSES), v.description('Only bookings in this status'))),
      attendance: v.optional(v.pipe(oneOf(ATTENDANCES), v.description('Only bookings with this attendance'))),
      equipment_status: v.optional(v.pipe(oneOf(EQUIPMENT_STATUSES), v.description('Only bookings whose kit is in this status'))),
      course_id: v.optional(v.pipe(idFromString, v.description('Only bookings of this course'))),
      from: v.optional(v.pipe(calendarDate, v.description('Only sessions on or after this day (YYYY-MM-DD)'))),
      to: v.optional(v.pipe(calendarDate, v.description('Only sessions on or before this day (YYYY-MM-DD)'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);
