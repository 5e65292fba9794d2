import * as v from 'valibot';
import { datesInOrder, INTERVIEW_BOOKING_FILTERS } from './clinical-interview.js';
import { instant, listQuery, built } from './fields.js';

/** Request schemas of the Services family. */

/** The clinical list's filters, and `updated_since`: the feed in change order. */
export const ServicesBookingsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      updated_since: v.optional(
        v.pipe(
          instant,
          v.description(
            'Only bookings changed at or after this instant (inclusive), in change order (`updated_at`, then `id`); each booking once, as its latest change left it. Changes less than 5 seconds old wait for the next poll. Resume with the last `updated_at` you saw, and skip a booking whose `id` and `updated_at` you already have.',
          ),
        ),
      ),
      ...INTERVIEW_BOOKING_FILTERS,
      ...listQuery,
    }),
    v.forward(v.check(datesInOrder, '`to` must not be before `from`'), ['to']),
  ),
);
