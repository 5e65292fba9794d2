import * as portalV2 from '../../api/routes/portal-v2.js';
import { linkTo } from '../../api/routes/operation.js';
import { submissionPage } from '../../core/portal-v2/reference-forms.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, submissionFormPage } from './_pages.js';

/** The candidate names their referees. */
export const handler = pageHandler(portalV2.showRefereeSubmission, async ({ deps, params, baseUrl }) => {
  const ctx = await submissionPage(deps, params.token);
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 200, html: closedPage(ctx.state, ctx.agency) };
  return { status: 200, html: submissionFormPage(ctx, linkTo(baseUrl, portalV2.submitReferees, params)) };
});
