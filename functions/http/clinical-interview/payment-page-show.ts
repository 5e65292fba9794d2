import { clinicalInterview } from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentPageModel } from './_payment-page.js';
import { paymentPage } from './_pages.js';

export const handler = pageHandler(clinicalInterview.showPaymentPage, async ({ deps, params, baseUrl }) => ({
  status: 200,
  html: paymentPage(await paymentPageModel(deps, params.token, linkTo(baseUrl, clinicalInterview.submitPaymentPage, params))),
}));
