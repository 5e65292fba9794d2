import * as portalV2 from '../../api/routes/portal-v2.js';
import { linkTo } from '../../api/routes/operation.js';
import { DomainError } from '../../core/platform/errors.js';
import { declineReference, referenceForm, submitReference } from '../../core/portal-v2/reference-forms.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, refereeFormPage } from './_pages.js';

/** The referee submits the reference or declines it. A second submission gets a clear page and changes nothing. */
export const handler = pageHandler(portalV2.submitReferenceForm, async ({ deps, params, form, baseUrl }) => {
  const token = params.token;
  const ctx = await referenceForm(deps, token);
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 409, html: closedPage(ctx.state, ctx.agency) };
  try {
    if (form.action === 'decline') {
      await declineReference(deps, token, form.reason ?? '');
      return { status: 200, html: closedPage('declined', ctx.agency) };
    }
    const answers = Object.fromEntries(
      Object.entries(form)
        .filter(([k]) => k.startsWith('q_'))
        .map(([k, v]) => [k.slice(2), v]),
    );
    await submitReference(deps, token, answers);
    return { status: 200, html: closedPage('completed', ctx.agency) };
  } catch (err) {
    const errors = err instanceof DomainError ? (err.extensions.errors as Record<string, string> | undefined) : undefined;
    if (errors) return { status: 422, html: refereeFormPage(ctx, linkTo(baseUrl, portalV2.submitReferenceForm, { token }), form, errors) };
    if (err instanceof DomainError && err.code === 'invalid-state') {
      // Lost a race with another submission, or the request closed meanwhile.
      const now = await referenceForm(deps, token);
      return { status: 409, html: closedPage(now.state, ctx.agency) };
    }
    throw err;
  }
});
