/** Plain, accessible HTML for the public pages: no script, one small stylesheet, labels on every field. */

export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;line-height:1.5;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
label{display:block;font-weight:600;margin-top:1rem}
input[type=text],input[type=email],input[type=tel],textarea,select{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
fieldset{border:1px solid #bbb;margin-top:1rem}
.slot label{display:inline;font-weight:400;margin:0}
button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}
.error{color:#b00020;font-weight:600}
:focus{outline:3px solid #ffbf47;outline-offset:2px}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export const errorPage = (title: string, detail: string): string =>
  layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>`);

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
${field('phone', 'Telephone, international format (for example +447700900123)', values.phone, errors.phone, 'tel', 'autocomplete="tel" required')}
${field('job_role', 'Job role', values.job_role, errors.job_role, 'text', 'required')}
${nmc === 'required' ? field('nmc_number', 'NMC PIN (for example 12A3456B)', values.nmc_number, errors.nmc_number, 'text', 'required') : field('nmc_number', 'NMC PIN, if you have one (for example 12A3456B)', values.nmc_number, errors.nmc_number)}`;
}

/**
 * A form's valibot issues as the page shows them: the first message per
 * field, in plain words. A field left empty is missing from the form, and
 * valibot's words for that ("Invalid key: Expected …") are for developers.
 */
export function formErrors(issues: readonly { message: string; expected?: string | null; received?: string; path?: readonly { key?: unknown }[] }[], fallbackField: string, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => String(p.key)).join('.');
    const missing = issue.received === 'undefined' && issue.message.startsWith('Invalid key');
    errors[prefix + (path || fallbackField)] ??= missing ? 'Please fill this in' : issue.message;
  }
  return errors;
}
