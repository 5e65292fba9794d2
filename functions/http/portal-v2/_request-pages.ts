import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { linkTo, type Operation } from '../../api/routes/operation.js';
import { DomainError } from '../../core/platform/errors.js';
import { isCalendarDate, readableDate, readableDay } from '../../core/platform/time.js';
import type { FieldSpec } from '../../core/requests/fields.js';
import { ITEM_LABELS } from '../../core/requests/group.js';
import {
  attachUploadedFile,
  FieldErrors,
  markOpened,
  requestPage,
  submitItemFields,
  type PageItem,
  type PageKind,
  type RequestPage,
} from '../../core/portal-v2/request-pages.js';
import { escapeHtml, layout, pageText } from '../../middleware/html.js';
import { pageHandler, type PageInput, type PageResult } from '../../middleware/page-handler.js';

/**
 * The request groups' public pages, without JavaScript: the candidate's page
 * and a third party's form share this flow. An uploading actor posts an
 * item's fields, then its file to the bucket (a multipart form under a
 * signed policy); the bucket sends the browser back to `…/uploaded`.
 * Issuers and appraisers confirm, or deny with a reason.
 */

const OPS = {
  submission: { show: requestGroups.showRequestSubmission, submit: requestGroups.submitRequestSubmission },
  form: { show: requestGroups.showRequestForm, submit: requestGroups.submitRequestForm },
} as const;

const CLOSED: Record<string, [string, string]> = {
  cancelled: ['Request withdrawn', 'The agency has withdrawn this request. There is nothing to do.'],
  expired: ['Request expired', 'This request has expired. Please contact the agency if you still wish to respond.'],
};

/** One field of an item's form: posted by its name, its element id prefixed by the item's (a page holds several items with the same fields). */
const fieldHtml = (itemId: number, spec: FieldSpec, value: unknown, error: string | undefined): string => {
  const name = spec.name;
  const id = `i${itemId}-${name}`;
  const err = error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : '';
  const aria = error ? `aria-invalid="true" aria-describedby="${id}-error"` : '';
  const optional = 'optional' in spec && spec.optional ? ' (optional)' : '';
  const v = pageText(value);
  switch (spec.type) {
    case 'boolean':
      return `<p class="check"><input type="checkbox" id="${id}" name="${name}" value="yes" ${value === true || value === 'yes' ? 'checked' : ''}> <label for="${id}">${escapeHtml(spec.label)}</label></p>${err}`;
    case 'select':
      return `<label for="${id}">${escapeHtml(spec.label)}${optional}</label>${err}<select id="${id}" name="${name}" ${aria}><option value="">Choose…</option>${spec.options.map((o) => `<option value="${escapeHtml(o)}" ${o === v ? 'selected' : ''}>${escapeHtml(o.replaceAll('_', ' '))}</option>`).join('')}</select>`;
    case 'multi':
      return `<fieldset><legend>${escapeHtml(spec.label)}</legend>${err}${spec.options.map((o) => `<span class="slot"><input type="checkbox" id="${id}__${o}" name="${name}__${o}" value="yes" ${Array.isArray(value) && value.includes(o) ? 'checked' : ''}> <label for="${id}__${o}">${escapeHtml(o)}</label></span>`).join('')}</fieldset>`;
    case 'textarea':
      return `<label for="${id}">${escapeHtml(spec.label)}${optional}</label>${err}<textarea id="${id}" name="${name}" rows="3" maxlength="${spec.max}" ${aria}>${escapeHtml(v)}</textarea>`;
    default:
      // A date input shows the browser's date picker, in the reader's own order, and posts YYYY-MM-DD.
      return `<label for="${id}">${escapeHtml(spec.label)}${optional}</label>${err}<input type="${spec.type === 'email' ? 'email' : spec.type === 'date' ? 'date' : 'text'}" id="${id}" name="${name}" value="${escapeHtml(v)}" ${aria}>`;
  }
};

function itemSection(page: RequestPage, p: PageItem, action: string, values: Record<string, unknown>, errors: Record<string, string>): string {
  // The item's own name (a training subject, a certificate kind), as the request's PDF heads it; its status beside it.
  const title = page.kind.declaration.pdfLines(p.item)[0] ?? p.type.label;
  const heading = `<h2>${escapeHtml(title)}</h2>\n<p class="status">Status: ${escapeHtml(ITEM_LABELS[p.status as keyof typeof ITEM_LABELS] ?? p.status)}</p>`;
  const rejected =
    p.item.status === 'rejected' && p.item.rejection_reason
      ? `<p class="error">Not accepted: ${escapeHtml(p.item.rejection_reason)}. Please send it again.</p>`
      : '';
  if (p.upload) {
    const hidden = Object.entries(p.upload.fields)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('\n');
    return `${heading}<p>Your details are saved. Now choose the file: a PDF, JPEG or PNG, at most 10 MiB.</p>
<form method="post" action="${escapeHtml(p.upload.url)}" enctype="multipart/form-data">
${hidden}
<label for="file-${p.item.id}">File</label><input type="file" id="file-${p.item.id}" name="file" accept="application/pdf,image/jpeg,image/png" required>
<button type="submit">Upload</button>
</form>`;
  }
  if (!['requested', 'sent', 'opened', 'rejected'].includes(p.status)) return heading;
  const known = page.actor === 'issuer_form' || page.actor === 'appraiser_form' ? knownData(p) : '';
  const mine = errors && values.item_id === String(p.item.id);
  const fields = p.type.fields.map((f) => fieldHtml(p.item.id, f, mine ? values[f.name] : p.item.data?.[f.name], mine ? errors[f.name] : undefined)).join('\n');
  const confirm = page.actor === 'issuer_form' || page.actor === 'appraiser_form';
  return `${heading}${rejected}${known}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="item_id" value="${p.item.id}">
${fields}
${
  confirm
    ? `<p class="check"><input type="radio" id="confirm-${p.item.id}" name="decision" value="confirm" checked> <label for="confirm-${p.item.id}">I confirm this</label></p>
<p class="check"><input type="radio" id="deny-${p.item.id}" name="decision" value="deny"> <label for="deny-${p.item.id}">I cannot confirm this</label></p>
<label for="reason-${p.item.id}">Reason, if you cannot confirm</label>${mine && errors.reason ? `<p class="error">${escapeHtml(errors.reason)}</p>` : ''}<textarea id="reason-${p.item.id}" name="reason" rows="3" maxlength="500"></textarea>
<button type="submit">Send answer</button>`
    : `<button type="submit">${p.type.file ? 'Save and choose the file' : 'Send'}</button>`
}
</form>`;
}

const knownData = (p: PageItem) =>
  `<dl>${Object.entries(p.item.data ?? {})
    .filter(([k]) => !p.type.fields.some((f) => f.name === k))
    .map(
      ([k, v]) =>
        `<dt>${escapeHtml(k.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase()))}</dt><dd>${escapeHtml(typeof v === 'string' && isCalendarDate(v) ? readableDate(v) : v)}</dd>`,
    )
    .join('')}</dl>`;

export function requestPageHtml(
  page: RequestPage,
  action: string,
  values: Record<string, unknown> = {},
  errors: Record<string, string> = {},
  notice?: string,
): string {
  if (page.closed) {
    const [title, text] = CLOSED[page.closed]!;
    return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`, page.agency);
  }
  const decl = page.kind.declaration;
  const title = `${decl.title.replace(/ request$/, '')} for ${page.request.candidate_name}`;
  const body = page.items.map((p) => itemSection(page, p, action, values, errors)).join('\n');
  const done = page.items.every((p) => !['requested', 'sent', 'opened', 'rejected'].includes(p.status));
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(page.agency)} asks for the following. This page works until ${escapeHtml(readableDay(page.request.expires_at, 'Europe/London'))}.</p>
${notice ? `<p role="status"><strong>${escapeHtml(notice)}</strong></p>` : ''}
${Object.keys(errors).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
${done ? '<p>Thank you: there is nothing more to do now.</p>' : ''}
${body}`,
    page.agency,
  );
}

/** Multi-choice checkboxes arrive as `name__option`: gathered into the field's list. */
function gather(form: Record<string, string>): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = { ...form };
  for (const [k, v] of Object.entries(form)) {
    const [name, option] = k.split('__');
    if (option && v) values[name!] = [...((values[name!] as string[] | undefined) ?? []), option];
  }
  return values;
}

const actionOf = (kind: PageKind, baseUrl: string, token: string) => linkTo(baseUrl, OPS[kind].submit, { token });

export const showPage = (kind: PageKind, op: Operation) =>
  pageHandler(op, async ({ deps, params, baseUrl }: PageInput) => {
    const token = String((params as Record<string, unknown>).token);
    if (kind === 'form') await markOpened(deps, token);
    const page = await requestPage(deps, token, kind);
    return { status: page.closed ? 410 : 200, html: requestPageHtml(page, actionOf(kind, baseUrl, token)) };
  });

export const submitPage = (kind: PageKind, op: Operation) =>
  pageHandler(op, async ({ deps, params, form, baseUrl }: PageInput): Promise<PageResult> => {
    const token = String((params as Record<string, unknown>).token);
    const action = actionOf(kind, baseUrl, token);
    const before = await requestPage(deps, token, kind);
    if (before.closed) return { status: 410, html: requestPageHtml(before, action) };
    const itemId = Number(form.item_id);
    try {
      const { awaitingFile } = await submitItemFields(deps, token, kind, itemId, gather(form) as Record<string, string>);
      const page = await requestPage(deps, token, kind, awaitingFile ? itemId : undefined);
      return { status: 200, html: requestPageHtml(page, action, {}, {}, awaitingFile ? undefined : 'Thank you: your answer was sent.') };
    } catch (err) {
      if (err instanceof FieldErrors) return { status: 422, html: requestPageHtml(before, action, { ...form, item_id: String(itemId) }, err.errors) };
      if (err instanceof DomainError && err.code === 'invalid-state')
        return { status: 409, html: requestPageHtml(await requestPage(deps, token, kind), action, {}, {}, err.message) };
      throw err;
    }
  });

export const uploadedPage = (kind: PageKind, op: Operation) =>
  pageHandler(op, async ({ deps, params, query, baseUrl }: PageInput): Promise<PageResult> => {
    const token = String((params as Record<string, unknown>).token);
    const action = actionOf(kind, baseUrl, token);
    try {
      await attachUploadedFile(deps, token, kind, String(query.key ?? ''));
      return {
        status: 200,
        html: requestPageHtml(await requestPage(deps, token, kind), action, {}, {}, 'Thank you: your file was received and sent for review.'),
      };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'invalid-state')
        return { status: 422, html: requestPageHtml(await requestPage(deps, token, kind), action, {}, {}, err.message) };
      throw err;
    }
  });
