import type * as practicalTrainingLegacy from '../routes/practical-training-legacy.js';
import { json, type OperationContract } from './contract.js';
import * as R from './responses.js';

/** The deprecated practical training legacy family. */
const DEPRECATED =
  ' Deprecated: every answer carries `Deprecation`, `Sunset` and `Link` headers; during announced brownouts and after the sunset the API answers 410 `/problems/api-sunset`.';

export const PRACTICAL_TRAINING_LEGACY_CONTRACTS: Record<keyof typeof practicalTrainingLegacy, OperationContract> = {
  listPastBookings: {
    summary: 'List past bookings',
    description: `This client's practical training bookings whose training has ended, the latest first; takes a practical training token. Use the practical training API's \`GET /bookings\` with \`to\` instead.${DEPRECATED}`,
    tag: 'Bookings',
    request: { query: { limit: 25 }, invalid: { limit: '0' } },
    responses: { 200: json('Past bookings, the latest first', R.PracticalBooking, 'page') },
  },
  listUpcomingBookings: {
    summary: 'List upcoming bookings',
    description: `Bookings whose training has not ended yet (under way included), the soonest first. Use the practical training API's \`GET /bookings\` with \`from\` instead.${DEPRECATED}`,
    tag: 'Bookings',
    request: { query: { limit: 25 }, invalid: { limit: '0' } },
    responses: { 200: json('Upcoming bookings, the soonest first', R.PracticalBooking, 'page') },
  },
  searchBookings: {
    summary: 'Search bookings by date',
    description: `Bookings whose training starts on \`date\`, or on the days \`from\` to \`to\` (inclusive, at most 31 days), in the service time zone, the soonest first. Use the practical training API's \`GET /bookings\` with \`from\` and \`to\` instead.${DEPRECATED}`,
    tag: 'Bookings',
    request: { query: { from: '2026-12-01', to: '2026-12-31', limit: 25 }, invalid: { to: '2027-03-01' } },
    responses: { 200: json('Bookings, the soonest first', R.PracticalBooking, 'page') },
  },
  listBookingLinks: {
    summary: 'List booking links',
    description: `The agency's candidate booking page once per active course, with that course chosen. Use the practical training API's \`GET /client/booking-url\` instead (add \`?course_id=\` to choose a course).${DEPRECATED}`,
    tag: 'Account',
    responses: { 200: json('A booking link per active course', R.BookingLink, 'page') },
  },
};
