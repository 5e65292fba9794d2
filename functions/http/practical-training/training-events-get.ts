import * as practicalTraining from '../../api/routes/practical-training.js';
import { getTrainingEvent } from '../../core/practical-training/events.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.getTrainingEvent, async ({ deps, params }) => ({
  status: 200,
  body: await getTrainingEvent(deps, params.id),
}));
