import type * as v from 'valibot';
import { plainMessage } from '../api/schemas/messages.js';

/** Plain, accessible HTML for the public pages: no script, one small stylesheet, labels on every field. */

/** A value as page text: nothing for null or undefined. */
export function pageText(value: unknown): string {
  const shown: unknown = value ?? ''; // whatever was stored or posted; typed unknown so that any value may print
  return String(shown);
}

export const escapeHtml = (value: unknown): string => pageText(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What went wrong, above a page's form or choices, read out at once; nothing when there is nothing to say. */
export const alertNotice = (notice: string | undefined): string => (notice ? `<p class="error" role="alert">${escapeHtml(notice)}</p>` : '');

/**
 * Every public page: the agency's name at the top (the candidate deals with
 * the agency, not with us), one small stylesheet, no external fonts or
 * scripts, readable at 390 px and at 1280 px.
 */
export function layout(title: string, body: string, agency?: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(agency ? `${title} · ${agency}` : title)}</title>
<style>${STYLESHEET}</style>
</head>
<body>
${agency ? `<header><p class="agency">${escapeHtml(agency)}</p></header>\n` : ''}<main>
${body}
</main>
</body>
</html>`;
}

/** The one stylesheet of the public pages. */
const STYLESHEET = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;margin:0;color:#1b1b1b;background:#f3f4f6}
header{background:#1d3b5c;color:#fff;padding:.75rem 1rem}
header .agency{max-width:42rem;margin:0 auto;font-weight:700;font-size:1.1rem}
main{max-width:42rem;margin:1.5rem auto;padding:1.25rem 1rem 2rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=email],input[type=tel],input[type=date],textarea,select{width:100%;padding:.55rem;font-size:1rem;border:1px solid #8a8f98;border-radius:.25rem}
input[aria-invalid=true],textarea[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b00020}
fieldset{border:1px solid #c8ccd2;border-radius:.25rem;margin:1rem 0 0;padding:.5rem .75rem .75rem}
legend{font-weight:600;padding:0 .25rem}
.slot{display:inline-block;margin:.35rem .75rem .35rem 0}
.day{padding:.35rem 0;border-bottom:1px solid #e3e5e8}
.day:last-child{border-bottom:0}
.day-name{margin:.25rem 0 0;font-weight:600}
.slot label,.check label{display:inline;font-weight:400;margin:0}
.check{margin:1rem 0 0}
input[type=file]{display:block;margin-top:.5rem}
p.status{margin:0 0 .5rem;color:#4a4f57}
.price,.total{font-size:1.05rem}
.days{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}
.days a{display:inline-block;padding:.4rem .7rem;border:1px solid #1d3b5c;border-radius:.25rem;color:#1d3b5c;text-decoration:none}
.days a[aria-current=date]{background:#1d3b5c;color:#fff}
button{margin-top:1.25rem;padding:.65rem 1.3rem;font-size:1rem;font-weight:600;color:#fff;background:#1d6b3c;border:0;border-radius:.25rem;cursor:pointer}
.choices{list-style:none;padding:0;margin:.5rem 0 0}
.choices li{border:1px solid #c8ccd2;border-radius:.35rem;padding:.75rem 1rem;margin:.75rem 0}
.choice{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem}
.choice .when{display:block;font-weight:600}
.choice .where,.choice .busy{display:block;color:#4a4f57}
.choice button{margin-top:0}
blockquote{margin:1rem 0;padding:.5rem 1rem;border-left:4px solid #c8ccd2;background:#f7f8fa}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0}
.error{color:#b00020;font-weight:600}
p.error[role=alert]{border-left:4px solid #b00020;padding:.5rem .75rem;background:#fdecee}
:focus{outline:3px solid #ffbf47;outline-offset:2px}
@media (max-width:480px){main{margin:0;border-radius:0;box-shadow:none}h1{font-size:1.35rem}}
`;

export const errorPage = (title: string, detail: string): string => layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>`);

/** A labelled text input, with its error (if any) tied to it for screen readers. */
export function field(name: string, label: string, value: string | undefined, error: string | undefined, type = 'text', extra = ''): string {
  const errorId = `${name}-error`;
  return `<label for="${name}">${escapeHtml(label)}</label>
${error ? `<p class="error" id="${errorId}">${escapeHtml(error)}</p>` : ''}
<input type="${type}" id="${name}" name="${name}" value="${escapeHtml(value ?? '')}" ${error ? `aria-invalid="true" aria-describedby="${errorId}"` : ''} ${extra}>`;
}

/** The candidate's details, the same on every booking page; the NMC PIN is required only where the family needs one. */
export function candidateFields(values: Record<string, string | undefined>, errors: Record<string, string | undefined>, nmc: 'required' | 'optional'): string {
  return `<h2>Your details</h2>
${field('first_name', 'First name', values.first_name, errors.first_name, 'text', 'autocomplete="given-name" required')}
${field('last_name', 'Last name', values.last_name, errors.last_name, 'text', 'autocomplete="family-name" required')}
${field('email', 'E-mail address', values.email, errors.email, 'email', 'autocomplete="email" required')}
${field('phone', 'Mobile number (for example 07700 900123)', values.phone, errors.phone, 'tel', 'autocomplete="tel" required')}
${field('job_role', 'Job role', values.job_role, errors.job_role, 'text', 'required')}
${nmc === 'required' ? field('nmc_number', 'NMC PIN (for example 12A3456B)', values.nmc_number, errors.nmc_number, 'text', 'required') : field('nmc_number', 'NMC PIN, if you have one (for example 12A3456B)', values.nmc_number, errors.nmc_number)}`;
}

/**
 * A form's valibot issues as the page shows them: the first message per
 * field, in plain words. A field left empty is missing from the form, and
 * valibot's words for that ("Invalid key: Expected …") are for developers.
 */
export function formErrors(issues: readonly v.BaseIssue<unknown>[], fallbackField: string, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => String(p.key)).join('.');
    const missing = issue.received === 'undefined' && issue.message.startsWith('Invalid key');
    errors[prefix + (path || fallbackField)] ??= missing ? 'Please fill this in' : plainMessage(issue);
  }
  return errors;
}
