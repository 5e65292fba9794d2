import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { loadCatalog } from '../../core/clinical-interview/catalog.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(clinicalInterview.listInterviewTypes, async ({ deps }) => {
  const { types } = await loadCatalog(deps);
  const data = types.filter((t) => t.active).map((t) => ({ id: t.id, name: t.name, duration_minutes: t.durationMinutes, price: t.price }));
  return { status: 200, body: { data, next_cursor: null } };
});
