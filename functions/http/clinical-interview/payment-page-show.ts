import { pageHandler } from '../../middleware/page-handler.js';
import { paymentPageModel } from './payment-page-model.js';
import { paymentPage } from './pages.js';

export const handler = pageHandler('clinical-interview', async ({ deps, params, baseUrl }) => ({
  status: 200,
  html: paymentPage(await paymentPageModel(deps, params.token ?? '', `${baseUrl}/pay/${params.token}`)),
}));
