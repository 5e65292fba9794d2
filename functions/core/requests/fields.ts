/**
 * The fields an actor fills in on a public page, declared by a request kind:
 * the page renders them and this module checks what comes back (plain form
 * strings in, typed data out, one message per field in plain words).
 */

export type FieldSpec =
  | { name: string; label: string; type: 'text'; max?: number; pattern?: RegExp; patternMessage?: string; optional?: boolean; upper?: boolean }
  | { name: string; label: string; type: 'textarea'; max: number; optional?: boolean }
  | { name: string; label: string; type: 'email'; optional?: boolean }
  | { name: string; label: string; type: 'date'; when: 'past' | 'future'; optional?: boolean; after?: string }
  | { name: string; label: string; type: 'select'; options: readonly string[]; optional?: boolean }
  | { name: string; label: string; type: 'multi'; options: readonly string[] }
  | { name: string; label: string; type: 'boolean' };

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
// Control and format characters (tab and newline only in long text): they end up in e-mails and PDFs.
const HOSTILE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Expiry and review dates of documents run years ahead (a passport: ten); the booking horizon of 400 days is not theirs.
const HORIZON_DAYS = 20 * 366;

export type FieldValues = Record<string, string | string[] | undefined>;

/**
 * Typed data from form values, or the errors by field name. `today` is the
 * service-time-zone date (YYYY-MM-DD) dates are compared with.
 */
export function readFields(
  specs: readonly FieldSpec[],
  values: FieldValues,
  today: string,
): { data: Record<string, unknown> } | { errors: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const raw = values[spec.name];
    if (spec.type === 'boolean') {
      data[spec.name] = raw === 'yes' || raw === 'on' || raw === 'true';
      continue;
    }
    if (spec.type === 'multi') {
      const chosen = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((x) => x !== '');
      const unknown = chosen.find((x) => !spec.options.includes(x));
      if (unknown !== undefined) errors[spec.name] = `Choose from ${spec.options.join(', ')}`;
      else data[spec.name] = [...new Set(chosen)];
      continue;
    }
    const text = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
    if (text === '') {
      if (spec.optional) data[spec.name] = null;
      else errors[spec.name] = 'Please fill this in';
      continue;
    }
    if (HOSTILE.test(spec.type === 'textarea' ? text.replace(/[\t\n\r]/g, '') : text)) {
      errors[spec.name] = 'Remove control or formatting characters';
      continue;
    }
    const error = check(spec, text, today, data);
    if (error) errors[spec.name] = error;
    else data[spec.name] = spec.type === 'text' && spec.upper ? text.toUpperCase() : spec.type === 'email' ? text.toLowerCase() : text;
  }
  return Object.keys(errors).length ? { errors } : { data };
}

function check(spec: FieldSpec, text: string, today: string, data: Record<string, unknown>): string | undefined {
  switch (spec.type) {
    case 'text': {
      const value = spec.upper ? text.toUpperCase() : text;
      if (value.length > (spec.max ?? 100)) return `At most ${spec.max ?? 100} characters`;
      if (spec.pattern && !spec.pattern.test(value)) return spec.patternMessage ?? 'Not in the expected format';
      return undefined;
    }
    case 'textarea':
      return text.length > spec.max ? `At most ${spec.max} characters` : undefined;
    case 'email':
      return text.length > 254 || !EMAIL.test(text) ? 'Not a valid e-mail address' : undefined;
    case 'select':
      return spec.options.includes(text) ? undefined : `Choose one of ${spec.options.join(', ')}`;
    case 'date': {
      if (
        !/^\d{4}-\d\d-\d\d$/.test(text) ||
        Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ||
        new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text
      ) {
        return 'Give a date as YYYY-MM-DD';
      }
      if (spec.when === 'past' && text > today) return 'This date cannot be in the future';
      const after = spec.after ? data[spec.after] : undefined;
      if (spec.when === 'future' && typeof after === 'string' && text <= after) return 'This date must be after the issue date';
      const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + HORIZON_DAYS * 86_400_000).toISOString().slice(0, 10);
      return text > horizon ? 'At most 20 years ahead' : undefined;
    }
  }
  return undefined;
}
