import { CancelRequest, NoShowsQuery, PracticalBookingRequest, PracticalBookingsQuery, SeatHoldRequest, TrainingEventsQuery } from '../schemas/practical-training.js';
import { familyOperations } from './operation.js';

/** The practical training family's own operations (design/practical-training.md); handlers under functions/http/practical-training. */
export const practicalTraining = familyOperations('practical-training', {
  listCourses: { method: 'GET', path: '/courses', handler: 'practical-training/courses-list', auth: 'bearer', contract: 'spec' },
  listLocations: { method: 'GET', path: '/locations', handler: 'practical-training/locations-list', auth: 'bearer', contract: 'spec' },
  listTrainingEvents: { method: 'GET', path: '/training-events', handler: 'practical-training/training-events-list', auth: 'bearer', contract: 'spec', query: TrainingEventsQuery },
  getTrainingEvent: { method: 'GET', path: '/training-events/{id}', handler: 'practical-training/training-events-get', auth: 'bearer', contract: 'spec' },
  holdSeat: { method: 'POST', path: '/seats/hold', handler: 'practical-training/seats-hold', auth: 'bearer', contract: 'spec', idempotent: true, body: SeatHoldRequest },
  releaseSeat: { method: 'DELETE', path: '/seats/hold/{holdHash}', handler: 'practical-training/seats-release', auth: 'bearer', contract: 'spec' },
  createBooking: { method: 'POST', path: '/bookings', handler: 'practical-training/bookings-create', auth: 'bearer', contract: 'spec', idempotent: true, body: PracticalBookingRequest },
  listBookings: { method: 'GET', path: '/bookings', handler: 'practical-training/bookings-list', auth: 'bearer', contract: 'spec', query: PracticalBookingsQuery },
  // A static segment: listed before `{id}` so no router could take it for an id.
  listNoShows: { method: 'GET', path: '/bookings/no-shows', handler: 'practical-training/bookings-no-shows', auth: 'bearer', contract: 'spec', query: NoShowsQuery },
  getBooking: { method: 'GET', path: '/bookings/{id}', handler: 'practical-training/bookings-get', auth: 'bearer', contract: 'spec' },
  cancelBooking: { method: 'POST', path: '/bookings/{id}/cancel', handler: 'practical-training/bookings-cancel', auth: 'bearer', contract: 'spec', body: CancelRequest },
  getAccount: { method: 'GET', path: '/client/account', handler: 'practical-training/client-account', auth: 'bearer', contract: 'spec' },
});
