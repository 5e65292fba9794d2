import type { FormContext, SubmissionContext } from '../../core/portal-v2/reference-forms.js';
import { RATING_MAX, RATING_MIN } from '../../core/portal-v2/templates.js';
import { readableDay } from '../../core/platform/time.js';
import { escapeHtml, field, layout } from '../../middleware/html.js';

/** The public pages of reference requests: the referee's form and the candidate's referee page. */

const CLOSED: Record<string, [string, string]> = {
  completed: ['Thank you', 'Your reference has been received. There is nothing more to do.'],
  declined: ['Reference declined', 'You declined to give this reference. There is nothing more to do.'],
  cancelled: ['Request withdrawn', 'The agency has withdrawn this reference request. There is nothing to do.'],
  expired: ['Request expired', 'This reference request has expired. Please contact the agency if you still wish to respond.'],
  submitted: ['Referees received', 'Thank you: your referees have been sent their reference forms.'],
};

export const closedPage = (state: string, agency?: string): string => {
  const [title, text] = CLOSED[state] ?? ['Closed', 'This link no longer works.'];
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`, agency);
};

export function refereeFormPage(ctx: FormContext, action: string, values: Record<string, string> = {}, errors: Record<string, string> = {}): string {
  const page = (title: string, html: string) => layout(title, html, ctx.agency);
  const questions = ctx.template.questions
    .map((q) => {
      const name = `q_${q.id}`;
      const error = errors[q.id] ? `<p class="error" id="${name}-error">${escapeHtml(errors[q.id])}</p>` : '';
      const required = q.required ? ' (required)' : ' (optional)';
      if (q.kind === 'rating') {
        const options = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => i + RATING_MIN)
          .map(
            (n) =>
              `<span class="slot"><input type="radio" id="${name}-${n}" name="${name}" value="${n}" ${values[name] === String(n) ? 'checked' : ''}> <label for="${name}-${n}">${n}</label></span>`,
          )
          .join('\n');
        return `<fieldset ${error ? `aria-describedby="${name}-error"` : ''}><legend>${escapeHtml(q.label)}${required}: ${RATING_MIN} poor, ${RATING_MAX} excellent</legend>${error}\n${options}</fieldset>`;
      }
      return `<label for="${name}">${escapeHtml(q.label)}${required}</label>${error}
<textarea id="${name}" name="${name}" rows="4" maxlength="2000" ${error ? `aria-invalid="true" aria-describedby="${name}-error"` : ''}>${escapeHtml(values[name] ?? '')}</textarea>`;
    })
    .join('\n');
  return page(
    `Reference for ${ctx.request.candidate_name}`,
    `<h1>Employment reference for ${escapeHtml(ctx.request.candidate_name)}</h1>
<p>${escapeHtml(ctx.agency)} asks you, ${escapeHtml(ctx.reference.referee_name)} (${escapeHtml(ctx.reference.referee_position)}, ${escapeHtml(ctx.reference.referee_organisation)}),
for a reference about ${escapeHtml(ctx.request.candidate_name)}. This form works until ${escapeHtml(readableDay(ctx.reference.expires_at, 'Europe/London'))}.</p>
${Object.keys(errors).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="action" value="submit">
${questions}
<button type="submit">Submit reference</button>
</form>
<h2>Cannot give a reference?</h2>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="action" value="decline">
<label for="reason">Reason for declining</label>
${errors.reason ? `<p class="error" id="reason-error">${escapeHtml(errors.reason)}</p>` : ''}
<textarea id="reason" name="reason" rows="3" maxlength="2000" ${errors.reason ? 'aria-invalid="true" aria-describedby="reason-error"' : ''}>${escapeHtml(values.reason ?? '')}</textarea>
<button type="submit">Decline</button>
</form>`,
  );
}

export const REFEREE_FIELDS = [
  ['referee_name', 'Name', 'text', true],
  ['referee_email', 'E-mail address', 'email', true],
  ['referee_organisation', 'Organisation', 'text', true],
  ['referee_position', 'Position', 'text', true],
  ['referee_phone', 'Telephone (optional, for example 07700 900123)', 'tel', false],
  ['relationship_to_candidate', 'How they know you (optional)', 'text', false],
] as const;

export const refereeRows = (ctx: SubmissionContext) => Math.min(10, Math.max(ctx.request.references_required, 2) + 1);

export function submissionFormPage(ctx: SubmissionContext, action: string, values: Record<string, string> = {}, errors: Record<string, string> = {}): string {
  const page = (title: string, html: string) => layout(title, html, ctx.agency);
  const rows = Array.from({ length: refereeRows(ctx) }, (_, i) => {
    const required = i < ctx.request.references_required;
    return `<fieldset><legend>Referee ${i + 1}${required ? '' : ' (optional)'}</legend>
${REFEREE_FIELDS.map(([key, label, type]) => field(`r${i}_${key}`, label, values[`r${i}_${key}`], errors[`r${i}_${key}`], type)).join('\n')}
</fieldset>`;
  }).join('\n');
  return page(
    'Your referees',
    `<h1>Your referees</h1>
<p>${escapeHtml(ctx.agency)} needs ${ctx.request.references_required} employment reference${ctx.request.references_required === 1 ? '' : 's'} for you, ${escapeHtml(ctx.request.candidate_name)}.
Enter your referees below; we will e-mail each of them a reference form.</p>
${errors.form ? `<p class="error" role="alert">${escapeHtml(errors.form)}</p>` : Object.keys(errors).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<form method="post" action="${escapeHtml(action)}">
${rows}
<button type="submit">Send to my referees</button>
</form>`,
  );
}
