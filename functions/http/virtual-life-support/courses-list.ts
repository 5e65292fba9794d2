import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { loadCourses, toVlsCourseView } from '../../core/virtual-life-support/catalogue.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(virtualLifeSupport.listCourses, async ({ deps }) => ({
  status: 200,
  body: { data: (await loadCourses(deps)).filter((c) => c.active).map(toVlsCourseView), next_cursor: null },
}));
