import { PageQuery } from '../schemas/fields.js';
import { LegacySearchQuery } from '../schemas/practical-training-legacy.js';
import type { Operation } from './operation.js';

/**
 * The deprecated practical training legacy family, over practical training tokens; `successor` is each
 * operation's replacement in the practical training family.
 */
export const listPastBookings = {
  operationId: 'listPastBookings',
  family: 'practical-training-legacy',
  method: 'GET',
  path: '/bookings/past',
  handler: 'practical-training-legacy/bookings-past',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
  successor: '/bookings',
} as const satisfies Operation;
export const listUpcomingBookings = {
  operationId: 'listUpcomingBookings',
  family: 'practical-training-legacy',
  method: 'GET',
  path: '/bookings/upcoming',
  handler: 'practical-training-legacy/bookings-upcoming',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
  successor: '/bookings',
} as const satisfies Operation;
export const searchBookings = {
  operationId: 'searchBookings',
  family: 'practical-training-legacy',
  method: 'GET',
  path: '/bookings/search',
  handler: 'practical-training-legacy/bookings-search',
  auth: 'bearer',
  contract: 'spec',
  query: LegacySearchQuery,
  successor: '/bookings',
} as const satisfies Operation;
export const listBookingLinks = {
  operationId: 'listBookingLinks',
  family: 'practical-training-legacy',
  method: 'GET',
  path: '/booking-links',
  handler: 'practical-training-legacy/booking-links',
  auth: 'bearer',
  contract: 'spec',
  successor: '/client/booking-url',
} as const satisfies Operation;
