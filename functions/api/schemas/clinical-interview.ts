import * as v from 'valibot';
import { BOOKING_STATUSES, PAY_OPTIONS } from '../../core/platform/booking-vocabulary.js';
import { calendarDate, email, idFromString, listQuery, name, nmcNumber, phone, positiveId, timeOfDay, oneOf, built } from './fields.js';

/** Request schemas of the clinical interview family; the OpenAPI document is generated from these too. */

export const HoldRequest = /* @__PURE__ */ built(() =>
  v.object({
    interview_type_id: positiveId,
    date: calendarDate,
    time: timeOfDay,
  }),
);

/** The candidate's details, as the API's booking request and the booking page both take them. */
export const CANDIDATE_FIELDS = /* @__PURE__ */ built(() => ({
  first_name: name(),
  last_name: name(),
  email,
  phone,
  job_role: name(),
  nmc_number: nmcNumber,
}));

export const BookingRequest = /* @__PURE__ */ built(() =>
  v.object({
    hold_hash: v.pipe(v.string('Required, as a string'), v.trim(), v.minLength(1, 'Required'), v.maxLength(100)),
    ...CANDIDATE_FIELDS,
    pay_option: oneOf(PAY_OPTIONS),
    agency_contact_name: v.optional(name()),
    agency_contact_email: v.optional(email),
  }),
);

export const TimeslotsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      interview_type_id: v.pipe(idFromString, v.description('The interview type, from GET /interview-types')),
      from: v.optional(v.pipe(calendarDate, v.description('The first day to list (YYYY-MM-DD); today if left out'))),
      to: v.optional(v.pipe(calendarDate, v.description('The last day to list (YYYY-MM-DD); 13 days after `from` if left out'))),
    }),
    // At `to`, so the problem names the parameter to change.
    v.forward(
      v.check((q) => !q.from || !q.to || q.from <= q.to, '`to` must not be before `from`'),
      ['to'],
    ),
  ),
);

/** The filters of a list of interview bookings (here and in the Services feed). */
export const INTERVIEW_BOOKING_FILTERS = /* @__PURE__ */ built(() => ({
  status: v.optional(v.pipe(oneOf(BOOKING_STATUSES), v.description('Only bookings in this status'))),
  from: v.optional(v.pipe(calendarDate, v.description('Only interviews on or after this day (YYYY-MM-DD)'))),
  to: v.optional(v.pipe(calendarDate, v.description('Only interviews on or before this day (YYYY-MM-DD)'))),
}));

export const datesInOrder = <T extends { from?: string; to?: string }>(q: T): boolean => !q.from || !q.to || q.from <= q.to;

export const BookingsQuery = /* @__PURE__ */ built(() =>
  v.pipe(v.object({ ...INTERVIEW_BOOKING_FILTERS, ...listQuery }), v.forward(v.check(datesInOrder, '`to` must not be before `from`'), ['to'])),
);
