import * as practicalTraining from '../../api/routes/practical-training.js';
import { loadCatalogue } from '../../core/practical-training/catalogue.js';
import { toLocationView } from '../../core/practical-training/views.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.listLocations, async ({ deps }) => {
  const { locations } = await loadCatalogue(deps);
  return { status: 200, body: { data: locations.filter((l) => l.active).map(toLocationView), next_cursor: null } };
});
