import { createHold } from '../../core/holds.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { refuseBeyondHorizon } from '../shared/fields.js';
import { HoldRequest } from './schemas.js';

export const handler = httpHandler(
  { family: 'clinical-interview', auth: 'bearer', body: HoldRequest, idempotent: true },
  async ({ deps, caller, body }) => {
    refuseBeyondHorizon(deps, 'body', { date: body.date });
    return { status: 201, body: await createHold(deps, caller.clientId, { interviewTypeId: body.interview_type_id, date: body.date, time: body.time }) };
  },
);
