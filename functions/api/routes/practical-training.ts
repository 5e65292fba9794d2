import {
  CancelRequest,
  NoShowsQuery,
  PracticalBookingRequest,
  PracticalBookingsQuery,
  SeatHoldRequest,
  TrainingEventsQuery,
} from '../schemas/practical-training.js';
import type { Operation } from './operation.js';

/** The practical training family's own operations; handlers under functions/http/practical-training. */
export const listCourses = {
  operationId: 'listCourses',
  family: 'practical-training',
  method: 'GET',
  path: '/courses',
  handler: 'practical-training/courses-list',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const listLocations = {
  operationId: 'listLocations',
  family: 'practical-training',
  method: 'GET',
  path: '/locations',
  handler: 'practical-training/locations-list',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const listTrainingEvents = {
  operationId: 'listTrainingEvents',
  family: 'practical-training',
  method: 'GET',
  path: '/training-events',
  handler: 'practical-training/training-events-list',
  auth: 'bearer',
  contract: 'spec',
  query: TrainingEventsQuery,
} as const satisfies Operation;
export const getTrainingEvent = {
  operationId: 'getTrainingEvent',
  family: 'practical-training',
  method: 'GET',
  path: '/training-events/{id}',
  handler: 'practical-training/training-events-get',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const holdSeat = {
  operationId: 'holdSeat',
  family: 'practical-training',
  method: 'POST',
  path: '/seats/hold',
  handler: 'practical-training/seats-hold',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: SeatHoldRequest,
} as const satisfies Operation;
export const releaseSeat = {
  operationId: 'releaseSeat',
  family: 'practical-training',
  method: 'DELETE',
  path: '/seats/hold/{holdHash}',
  handler: 'practical-training/seats-release',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const createBooking = {
  operationId: 'createBooking',
  family: 'practical-training',
  method: 'POST',
  path: '/bookings',
  handler: 'practical-training/bookings-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: PracticalBookingRequest,
} as const satisfies Operation;
export const listBookings = {
  operationId: 'listBookings',
  family: 'practical-training',
  method: 'GET',
  path: '/bookings',
  handler: 'practical-training/bookings-list',
  auth: 'bearer',
  contract: 'spec',
  query: PracticalBookingsQuery,
} as const satisfies Operation;
// A static segment: listed before `{id}` so no router could take it for an id.
export const listNoShows = {
  operationId: 'listNoShows',
  family: 'practical-training',
  method: 'GET',
  path: '/bookings/no-shows',
  handler: 'practical-training/bookings-no-shows',
  auth: 'bearer',
  contract: 'spec',
  query: NoShowsQuery,
} as const satisfies Operation;
export const getBooking = {
  operationId: 'getBooking',
  family: 'practical-training',
  method: 'GET',
  path: '/bookings/{id}',
  handler: 'practical-training/bookings-get',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
export const cancelBooking = {
  operationId: 'cancelBooking',
  family: 'practical-training',
  method: 'POST',
  path: '/bookings/{id}/cancel',
  handler: 'practical-training/bookings-cancel',
  auth: 'bearer',
  contract: 'spec',
  body: CancelRequest,
} as const satisfies Operation;
export const getAccount = {
  operationId: 'getAccount',
  family: 'practical-training',
  method: 'GET',
  path: '/client/account',
  handler: 'practical-training/client-account',
  auth: 'bearer',
  contract: 'spec',
} as const satisfies Operation;
