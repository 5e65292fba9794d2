import * as portalV2 from '../../api/routes/portal-v2.js';
import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import { RefereeInput } from '../../api/schemas/portal-v2.js';
import { DomainError } from '../../core/platform/errors.js';
import type { RefereeInput as Referee } from '../../core/portal-v2/references.js';
import { submissionPage, submitReferees } from '../../core/portal-v2/reference-forms.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { closedPage, REFEREE_FIELDS, refereeRows, submissionFormPage } from './_pages.js';

/** The candidate's referees arrive; each is e-mailed the form. Rows left blank are skipped. */
export const handler = pageHandler(portalV2.submitReferees, async ({ deps, params, form, baseUrl }) => {
  const token = params.token;
  const ctx = await submissionPage(deps, token);
  if (ctx.state !== 'open') return { status: ctx.state === 'cancelled' || ctx.state === 'expired' ? 410 : 409, html: closedPage(ctx.state, ctx.agency) };
  const action = linkTo(baseUrl, portalV2.submitReferees, { token });
  const errors: Record<string, string> = {};
  const referees: Referee[] = [];
  /** The form row of each referee, since blank rows are skipped. */
  const rows: number[] = [];
  for (let i = 0; i < refereeRows(ctx); i++) {
    const row = Object.fromEntries(
      REFEREE_FIELDS.map(([key]): [string, string] => [key, (form[`r${i}_${key}`] ?? '').trim()]).filter(([, value]) => value !== ''),
    );
    if (Object.keys(row).length === 0) continue;
    const parsed = v.safeParse(RefereeInput, row);
    if (parsed.success) {
      referees.push(parsed.output);
      rows.push(i);
    } else Object.assign(errors, formErrors(parsed.issues, 'referee_name', `r${i}_`));
  }
  if (!Object.keys(errors).length && referees.length < ctx.request.references_required) {
    errors.form = `Please give at least ${ctx.request.references_required} referee${ctx.request.references_required === 1 ? '' : 's'}.`;
  }
  if (Object.keys(errors).length) return { status: 422, html: submissionFormPage(ctx, action, form, errors) };
  try {
    await submitReferees(deps, token, referees, (i) => `r${rows[i]}_referee_email`);
  } catch (err) {
    // A rule of the request (the candidate named themself): shown next to the field it is about.
    if (err instanceof DomainError && err.code === 'invalid-field') {
      return { status: 422, html: submissionFormPage(ctx, action, form, { [String(err.extensions.pointer)]: err.message }) };
    }
    if (err instanceof DomainError && err.code === 'invalid-state')
      return { status: 409, html: closedPage((await submissionPage(deps, token)).state, ctx.agency) };
    throw err;
  }
  return { status: 200, html: closedPage('submitted', ctx.agency) };
});
