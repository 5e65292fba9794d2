import { PageQuery } from '../schemas/fields.js';
import { LegacySearchQuery } from '../schemas/practical-training-legacy.js';
import { familyOperations } from './operation.js';

/**
 * The deprecated practical training legacy family (design portal-and-facades
 * section 4), over practical training tokens; `successor` is each
 * operation's replacement in the practical training family.
 */
export const practicalTrainingLegacy = familyOperations('practical-training-legacy', {
  listPastBookings: { method: 'GET', path: '/bookings/past', handler: 'practical-training-legacy/bookings-past', auth: 'bearer', contract: 'spec', query: PageQuery, successor: '/bookings' },
  listUpcomingBookings: { method: 'GET', path: '/bookings/upcoming', handler: 'practical-training-legacy/bookings-upcoming', auth: 'bearer', contract: 'spec', query: PageQuery, successor: '/bookings' },
  searchBookings: { method: 'GET', path: '/bookings/search', handler: 'practical-training-legacy/bookings-search', auth: 'bearer', contract: 'spec', query: LegacySearchQuery, successor: '/bookings' },
  listBookingLinks: { method: 'GET', path: '/booking-links', handler: 'practical-training-legacy/booking-links', auth: 'bearer', contract: 'spec', successor: '/client/booking-url' },
});
