import type { GroupDeclaration } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { addMonths } from '../../platform/time.js';
import { DEFAULT_RETENTION, dataLines, itemType } from './common.js';
import { environment } from '../../platform/config.js';

/**
 * Training requests: the candidate uploads evidence of each statutory and
 * mandatory subject (CSTF, Skills for Health's eleven); the agency reviews.
 * An item is valid until its completion date plus the subject's refresher
 * months; a lapsed course is refused on the page.
 */

const CSTF_DEFAULT_MONTHS: Record<string, number> = {
  conflict_resolution: 36,
  equality_diversity_human_rights: 36,
  fire_safety: 24,
  health_safety_welfare: 36,
  infection_prevention_control: 12,
  information_governance: 12,
  moving_handling: 24,
  preventing_radicalisation: 36,
  resuscitation: 12,
  safeguarding_adults: 36,
  safeguarding_children: 36,
};
/**
 * Configuration adds codes and sets refresher months per code (Wales adds
 * violence and aggression): `CSTF_REFRESHER_MONTHS`, JSON such as
 * `{"violence_and_aggression":36,"fire_safety":12}`, laid over the defaults.
 */
export function cstfRefresherMonths(raw: string | undefined): Record<string, number> {
  if (!raw?.trim()) return { ...CSTF_DEFAULT_MONTHS };
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  for (const [code, months] of Object.entries(parsed)) {
    if (!/^[a-z][a-z0-9_]{1,63}$/.test(code) || !Number.isInteger(months) || (months as number) < 1 || (months as number) > 120) {
      throw new Error(`CSTF_REFRESHER_MONTHS: ${code} needs a code of lower-case letters, digits and _ and 1 to 120 months`);
    }
  }
  return { ...CSTF_DEFAULT_MONTHS, ...(parsed as Record<string, number>) };
}

export const CSTF_REFRESHER_MONTHS = cstfRefresherMonths(environment().CSTF_REFRESHER_MONTHS);
export const CSTF_CODES = Object.keys(CSTF_REFRESHER_MONTHS);

const SUBJECT = itemType('Training subject', [
  { name: 'level', label: 'Level', type: 'text', max: 40, optional: true },
  { name: 'completed_on', label: 'Completed on', type: 'date', when: 'past' },
  { name: 'provider', label: 'Training provider', type: 'text', max: 100 },
  { name: 'cstf_aligned', label: 'Aligned to the Core Skills Training Framework', type: 'boolean' },
]);

/** The subjects' names as the framework gives them; a code configuration adds is spelled from the code. */
const CSTF_NAMES: Record<string, string> = {
  conflict_resolution: 'Conflict resolution',
  equality_diversity_human_rights: 'Equality, diversity and human rights',
  health_safety_welfare: 'Health, safety and welfare',
  infection_prevention_control: 'Infection prevention and control',
  information_governance: 'Information governance and data security',
  moving_handling: 'Moving and handling',
};

export const label = (code: string) => CSTF_NAMES[code] ?? code.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());

export const trainingValidUntil = (type: string, completedOn: string): string => addMonths(completedOn, CSTF_REFRESHER_MONTHS[type] ?? 12);

export const training: GroupDeclaration<'training'> = {
  kind: 'training',
  title: 'Training request',
  labels: STANDARD_LABELS,
  itemType: () => SUBJECT,
  plan: (details, candidate) => (details.subjects as string[]).map((type) => ({ type, actor: { mode: 'candidate_upload', ...candidate } })),
  reviewed: true,
  validUntil: (item) => (typeof item.data?.completed_on === 'string' ? trainingValidUntil(item.type, item.data.completed_on) : null),
  refuse: (type, data, today) =>
    typeof data.completed_on === 'string' && trainingValidUntil(type, data.completed_on) <= today
      ? { completed_on: `This course has lapsed: ${label(type)} must be refreshed every ${CSTF_REFRESHER_MONTHS[type] ?? 12} months` }
      : undefined,
  retention: DEFAULT_RETENTION,
  pdfLines: (item) => [label(item.type), ...dataLines(SUBJECT, item), ...(item.valid_until ? [`Valid until: ${item.valid_until}`] : [])],
};
