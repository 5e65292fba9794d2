import * as practicalTraining from '../../api/routes/practical-training.js';
import { EVENT_RANGE_DAYS, listTrainingEvents } from '../../core/practical-training/events.js';
import { daysBetween } from '../../core/platform/time.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { validationProblem } from '../../middleware/problems.js';

export const handler = httpHandler(practicalTraining.listTrainingEvents, async ({ deps, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  if (query.from && query.to && daysBetween(query.from, query.to) >= EVENT_RANGE_DAYS) {
    throw validationProblem([{ parameter: 'to', detail: `The range may cover at most ${EVENT_RANGE_DAYS} days` }]);
  }
  return { status: 200, body: await listTrainingEvents(deps, query) };
});
