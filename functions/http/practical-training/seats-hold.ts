import * as practicalTraining from '../../api/routes/practical-training.js';
import { holdSeat } from '../../core/practical-training/seats.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  practicalTraining.holdSeat,
  async ({ deps, caller, body }) => ({
    status: 201,
    body: await holdSeat(deps, { type: 'client', clientId: caller.clientId }, body.training_event_id),
  }),
  { idempotency },
);
