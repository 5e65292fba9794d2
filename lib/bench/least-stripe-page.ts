import * as clinicalInterview from '../../functions/api/routes/clinical-interview.js';
import { linkTo } from '../../functions/api/routes/operation.js';
import { stripeClient, stripeSettings } from '../../functions/core/commerce/stripe.js';
import { pageHandler } from '../../functions/middleware/page-handler.js';

/**
 * A reference for the bundle figures (lib/bench/bundles.ts), not a function
 * of the product: the least payment page's submit there can be. The
 * product's page edge, as every page answers (problem pages, the request's
 * correlation id, logs and metrics), sending the candidate to a Checkout
 * Session made with Stripe's SDK (bundled as the functions bundle it) and
 * its key from Secrets Manager; no booking, no rule of its own.
 */
export const handler = pageHandler(clinicalInterview.submitPaymentPage, async ({ params, baseUrl }) => {
  const pageUrl = linkTo(baseUrl, clinicalInterview.showPaymentPage, params);
  const session = await stripeClient(await stripeSettings()).checkout.sessions.create({ mode: 'payment', success_url: pageUrl, cancel_url: pageUrl });
  return { redirect: session.url! };
});
