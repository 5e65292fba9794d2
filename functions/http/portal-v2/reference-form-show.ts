import * as portalV2 from '../../api/routes/portal-v2.js';
import { linkTo } from '../../api/routes/operation.js';
import { markOpened, referenceForm } from '../../core/portal-v2/reference-forms.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, refereeFormPage } from './_pages.js';

/** The referee's form. Opening it marks the reference opened. */
export const handler = pageHandler(portalV2.showReferenceForm, async ({ deps, params, baseUrl }) => {
  const token = params.token;
  const ctx = await referenceForm(deps, token);
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 200, html: closedPage(ctx.state, ctx.agency) };
  await markOpened(deps, token);
  return { status: 200, html: refereeFormPage(ctx, linkTo(baseUrl, portalV2.submitReferenceForm, { token })) };
});
