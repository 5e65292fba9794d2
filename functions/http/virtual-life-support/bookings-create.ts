import { linkTo } from '../../api/routes/operation.js';
import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { createVlsBooking } from '../../core/virtual-life-support/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  virtualLifeSupport.createBooking,
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: await createVlsBooking(deps, caller.clientId, body, { payment: (token) => linkTo(baseUrl, virtualLifeSupport.showPaymentPage, { token }) }),
  }),
  { idempotency },
);
