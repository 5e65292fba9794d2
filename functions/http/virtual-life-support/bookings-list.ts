import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { listVlsBookings } from '../../core/virtual-life-support/bookings.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(virtualLifeSupport.listBookings, async ({ deps, caller, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  return { status: 200, body: await listVlsBookings(deps, caller.clientId, query) };
});
