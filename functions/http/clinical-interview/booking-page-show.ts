import { pageHandler } from '../../middleware/page-handler.js';
import { bookingPageModel } from './booking-page-model.js';
import { bookingPage } from './pages.js';

export const handler = pageHandler('clinical-interview', async ({ deps, params, query, baseUrl }) => {
  const model = await bookingPageModel(deps, params.token ?? '', query.interview_type_id, `${baseUrl}/book/${params.token}`);
  return { status: 200, html: bookingPage(model) };
});
