import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { getVlsBooking } from '../../core/virtual-life-support/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(virtualLifeSupport.getBooking, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getVlsBooking(deps, caller.clientId, params.id),
}));
