import { listBookings } from '../../core/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { refuseBeyondHorizon } from '../shared/fields.js';
import { BookingsQuery } from './schemas.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer', query: BookingsQuery }, async ({ deps, caller, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  return { status: 200, body: await listBookings(deps, caller.clientId, query) };
});
