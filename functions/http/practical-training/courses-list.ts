import * as practicalTraining from '../../api/routes/practical-training.js';
import { loadCatalogue } from '../../core/practical-training/catalogue.js';
import { toCourseView } from '../../core/practical-training/views.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.listCourses, async ({ deps }) => {
  const { courses } = await loadCatalogue(deps);
  return { status: 200, body: { data: courses.filter((c) => c.active).map(toCourseView), next_cursor: null } };
});
