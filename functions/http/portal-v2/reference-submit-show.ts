import { submissionPage } from '../../core/reference-forms.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, submissionFormPage } from './pages.js';

/** The candidate names their referees. */
export const handler = pageHandler('portal-v2', async ({ deps, params, baseUrl }) => {
  const ctx = await submissionPage(deps, params.token ?? '');
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 200, html: closedPage(ctx.state) };
  return { status: 200, html: submissionFormPage(ctx, `${baseUrl}/reference-submit/${params.token}`) };
});
