import { markOpened, referenceForm } from '../../core/reference-forms.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, refereeFormPage } from './pages.js';

/** The referee's form. Opening it marks the reference opened. */
export const handler = pageHandler('portal-v2', async ({ deps, params, baseUrl }) => {
  const token = params.token ?? '';
  const ctx = await referenceForm(deps, token);
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 200, html: closedPage(ctx.state) };
  await markOpened(deps, token);
  return { status: 200, html: refereeFormPage(ctx, `${baseUrl}/reference-form/${token}`) };
});
