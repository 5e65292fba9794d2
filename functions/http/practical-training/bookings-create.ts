import * as practicalTraining from '../../api/routes/practical-training.js';
import { createPracticalBooking } from '../../core/practical-training/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { paymentLinks } from './_links.js';

export const handler = httpHandler(
  practicalTraining.createBooking,
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: await createPracticalBooking(deps, caller.clientId, body, paymentLinks(baseUrl)),
  }),
  { idempotency },
);
