import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { createBooking } from '../../core/clinical-interview/booking-api.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  clinicalInterview.createBooking,
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: await createBooking(deps, caller.clientId, body, { payment: (token) => linkTo(baseUrl, clinicalInterview.showPaymentPage, { token }) }),
  }),
  { idempotency },
);
