import { ServicesBookingsQuery } from '../schemas/services.js';
import type { Operation } from './operation.js';

/** The Services family: a read-only feed over clinical interview tokens. */
export const listBookings = {
  operationId: 'listBookings',
  family: 'services',
  method: 'GET',
  path: '/bookings',
  handler: 'services/bookings-list',
  auth: 'bearer',
  contract: 'spec',
  query: ServicesBookingsQuery,
} as const satisfies Operation;
