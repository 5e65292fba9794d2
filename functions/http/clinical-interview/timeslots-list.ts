import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { availableSlots, MAX_RANGE_DAYS } from '../../core/clinical-interview/slots.js';
import { addDays, daysBetween, wallClock } from '../../core/platform/time.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { validationProblem } from '../../middleware/problems.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';

export const handler = httpHandler(clinicalInterview.listTimeslots, async ({ deps, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const from = query.from ?? today;
  const to = query.to ?? addDays(from, 13);
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) {
    throw validationProblem([{ parameter: 'to', detail: `The range may cover at most ${MAX_RANGE_DAYS} days` }]);
  }
  const data = await availableSlots(deps, { interviewTypeId: query.interview_type_id, from, to });
  return { status: 200, body: { data, next_cursor: null } };
});
