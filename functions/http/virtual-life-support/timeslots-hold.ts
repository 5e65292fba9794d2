import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { holdTimeslot } from '../../core/virtual-life-support/timeslots.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  virtualLifeSupport.holdTimeslot,
  async ({ deps, caller, body }) => {
    refuseBeyondHorizon(deps, 'body', { date: body.date });
    return {
      status: 201,
      body: await holdTimeslot(deps, { type: 'client', clientId: caller.clientId }, { courseId: body.course_id, date: body.date, time: body.time }),
    };
  },
  { idempotency },
);
