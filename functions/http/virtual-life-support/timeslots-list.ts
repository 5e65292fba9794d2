import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { addDays, daysBetween, wallClock } from '../../core/platform/time.js';
import { listTimeslots, MAX_RANGE_DAYS } from '../../core/virtual-life-support/timeslots.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { validationProblem } from '../../middleware/problems.js';

export const handler = httpHandler(virtualLifeSupport.listTimeslots, async ({ deps, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  const from = query.from ?? wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const to = query.to ?? addDays(from, 13);
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) throw validationProblem([{ parameter: 'to', detail: `The range may cover at most ${MAX_RANGE_DAYS} days` }]);
  return { status: 200, body: { data: await listTimeslots(deps, { courseId: query.course_id, from, to }), next_cursor: null } };
});
