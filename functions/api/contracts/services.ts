import type * as services from '../routes/services.js';
import { json, type OperationContract } from './contract.js';
import * as R from './responses.js';

/** The Services family. */
export const SERVICES_CONTRACTS: Record<keyof typeof services, OperationContract> = {
  listBookings: {
    summary: 'List interview bookings',
    description:
      "This client's clinical interview bookings, the same objects as the clinical interview API's `GET /bookings/{id}`; takes a clinical interview token. " +
      'Without `updated_since`: newest first. With it: a feed in change order (`updated_at`, then `id`) of every booking created or changed at or after that instant, each as its latest change left it, so a poller sees reschedules and cancellations too. ' +
      'Changes less than 5 seconds old wait for the next poll. To poll: read every page (`next_cursor`), then ask again with `updated_since` = the last `updated_at` you saw; that booking comes again (the bound is inclusive), so skip any `id` and `updated_at` you already have.',
    tag: 'Bookings',
    request: { query: { updated_since: '2026-11-20T10:00:00+00:00', status: 'booked', limit: 25 }, invalid: { updated_since: 'yesterday' } },
    responses: { 200: json('Bookings: newest first, or in change order with `updated_since`', R.Booking, 'page') },
  },
};
