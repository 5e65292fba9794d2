import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { createHold } from '../../core/clinical-interview/holds.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';

export const handler = httpHandler(
  clinicalInterview.holdTimeslot,
  async ({ deps, caller, body }) => {
    refuseBeyondHorizon(deps, 'body', { date: body.date });
    return { status: 201, body: await createHold(deps, caller.clientId, { interviewTypeId: body.interview_type_id, date: body.date, time: body.time }) };
  },
  { idempotency },
);
