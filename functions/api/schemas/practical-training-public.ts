import * as v from 'valibot';
import { PAY_OPTIONS } from '../../core/platform/booking-vocabulary.js';
import { email, name, notes, positiveId, oneOf, built } from './fields.js';

/** Request schemas of the practical training family's booking invites. */

export const MAX_INVITE_DAYS = 60;

export const BookingInviteRequest = /* @__PURE__ */ built(() =>
  v.object({
    candidate: v.object({ first_name: name(), last_name: name(), email }, 'The candidate: first_name, last_name and email'),
    course_id: positiveId,
    training_event_id: v.optional(positiveId),
    location_id: v.optional(positiveId),
    pay_option: oneOf(PAY_OPTIONS),
    expires_in_days: v.optional(
      v.pipe(
        v.number('A whole number of days'),
        v.integer('A whole number of days'),
        v.minValue(1, 'At least 1'),
        v.maxValue(MAX_INVITE_DAYS, `At most ${MAX_INVITE_DAYS}`),
      ),
      14,
    ),
    message: v.optional(notes(2000)),
  }),
);
