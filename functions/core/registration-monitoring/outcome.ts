import { canonicalJson } from '../platform/canonical-json.js';
import { daysBetween } from '../platform/time.js';
import type { AnnotationType, RegisterRecord } from './register-adapter.js';

/**
 * What a register answer means: the outcome and its
 * reasons, the field-level changes since the previous check, and the alert
 * conditions it shows. Pure rules: no table, no clock but the one given.
 */

export type Outcome = 'clear' | 'review' | 'fail';
import type { Severity } from '../platform/registration-vocabulary.js';
export type { Severity };
export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];
export const severityRank = (s: Severity | 'none'): number => (s === 'none' ? 99 : SEVERITIES.indexOf(s));

export type AlertType =
  | 'registration.status_changed'
  | 'registration.not_found'
  | 'registration.restricted'
  | 'registration.expiring'
  | 'registration.name_mismatch'
  | 'verification.unavailable';
export const ALERT_TYPES: readonly AlertType[] = [
  'registration.status_changed',
  'registration.not_found',
  'registration.restricted',
  'registration.expiring',
  'registration.name_mismatch',
  'verification.unavailable',
];

export type NameMatch = 'exact' | 'partial' | 'mismatch';

/** The result of a completed check as the verification shows it. */
export type CheckResult = { found: boolean; name_match: NameMatch | null } & Partial<RegisterRecord>;

export interface Reason {
  code: string;
  detail: string;
}
export interface Change {
  field: string;
  from: unknown;
  to: unknown;
}
export interface AlertCondition {
  type: AlertType;
  severity: Severity;
  details: { from: unknown; to: unknown };
}

/** Configuration of the rules (their defaults). */
export const RULES = { reviewWithinDays: 30, expiringAtDays: [60, 30, 7] as const };

const ANNOTATION_SEVERITY: Record<AnnotationType, Severity> = {
  conditions_of_practice: 'high',
  interim_conditions: 'high',
  undertakings: 'high',
  caution: 'medium',
  warning: 'medium',
};

const words = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z\s-]/g, '')
    .split(/[\s-]+/)
    .filter(Boolean);

/** exact: the same words; partial: the same surname (a first name shortened, a middle name added); else mismatch. */
export function nameMatch(first: string, last: string, onRegister: string): NameMatch {
  const given = [...words(first), ...words(last)];
  const found = words(onRegister);
  if (given.join(' ') === found.join(' ')) return 'exact';
  const surname = words(last).join(' ');
  return found.join(' ').endsWith(surname) && surname !== '' ? 'partial' : 'mismatch';
}

const inForce = (r: CheckResult, today: string) => (r.annotations ?? []).filter((a) => a.from <= today && (a.to === null || a.to >= today));

export function judge(r: CheckResult, today: string): { outcome: Outcome; reasons: Reason[] } {
  const reasons: Reason[] = [];
  if (!r.found) return { outcome: 'fail', reasons: [{ code: 'not_found', detail: 'No entry on the register for this number' }] };
  if (r.registration_status !== 'registered') reasons.push({ code: 'status', detail: `The register says: ${r.status_text}` });
  const fail = reasons.length > 0;
  for (const a of inForce(r, today)) reasons.push({ code: a.type, detail: a.summary });
  if (r.name_match === 'mismatch') reasons.push({ code: 'name_mismatch', detail: `The register names ${r.name_on_register}` });
  if (r.expires_on && daysBetween(today, r.expires_on) <= RULES.reviewWithinDays)
    reasons.push({ code: 'expires_soon', detail: `The registration expires on ${r.expires_on}` });
  const review = reasons.length > (fail ? 1 : 0);
  if (r.name_match === 'partial') reasons.push({ code: 'name_partial', detail: `The register names ${r.name_on_register}` });
  return { outcome: fail ? 'fail' : review ? 'review' : 'clear', reasons };
}

const DIFFED = [
  'found',
  'registration_status',
  'status_text',
  'name_on_register',
  'expires_on',
  'licence_to_practise',
  'annotations',
  'recorded_qualifications',
] as const;

/** Field by field against the previous completed check (none: no changes). */
export function changesSince(previous: CheckResult | null, now: CheckResult): Change[] {
  if (!previous) return [];
  return DIFFED.filter((f) => canonicalJson(previous[f] ?? null) !== canonicalJson(now[f] ?? null)).map((field) => ({
    field,
    from: previous[field] ?? null,
    to: now[field] ?? null,
  }));
}

/** The conditions a completed check shows, one per alert type at most. */
export function alertConditions(r: CheckResult, previousStatus: string | null, today: string): AlertCondition[] {
  const found: AlertCondition[] = [];
  if (!r.found) return [{ type: 'registration.not_found', severity: 'critical', details: { from: previousStatus, to: 'not_found' } }];
  if (r.registration_status !== 'registered')
    found.push({ type: 'registration.status_changed', severity: 'critical', details: { from: previousStatus, to: r.registration_status } });
  const annotations = inForce(r, today);
  if (annotations.length) {
    const severity = annotations.map((a) => ANNOTATION_SEVERITY[a.type]).reduce((a, b) => (severityRank(b) > severityRank(a) ? b : a));
    found.push({ type: 'registration.restricted', severity, details: { from: null, to: annotations.map((a) => a.type) } });
  }
  if (r.expires_on) {
    const days = daysBetween(today, r.expires_on);
    const [low, medium, high] = RULES.expiringAtDays;
    const severity: Severity | null = days <= high ? 'high' : days <= medium ? 'medium' : days <= low ? 'low' : null;
    if (severity) found.push({ type: 'registration.expiring', severity, details: { from: null, to: r.expires_on } });
  }
  if (r.name_match === 'mismatch') found.push({ type: 'registration.name_mismatch', severity: 'high', details: { from: null, to: r.name_on_register } });
  return found;
}
