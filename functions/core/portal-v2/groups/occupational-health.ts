import type { FieldSpec } from '../../requests/fields.js';
import type { GroupDeclaration, ItemType } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { dataLines, itemType } from './common.js';

/**
 * Occupational health requests.
 * Items hold outcomes, evidence kinds and dates only, never a diagnosis or a
 * result; lists, webhooks, e-mails and logs never carry item data or files.
 * Evidence comes from the candidate or from the OH provider's form.
 */

const dated = (evidence: readonly string[]): readonly FieldSpec[] => [
  { name: 'evidence', label: 'Evidence', type: 'select', options: evidence },
  { name: 'dated_on', label: 'Dated on', type: 'date', when: 'past' },
];

const TYPES: Record<string, ItemType> = {
  hep_b: itemType('Hepatitis B', dated(['titre', 'low_responder_letter'])),
  mmr: itemType('Measles, mumps and rubella', dated(['two_doses', 'serology'])),
  varicella: itemType('Varicella', dated(['history', 'serology', 'vaccination'])),
  tb: itemType('Tuberculosis', dated(['bcg_scar', 'skin_test', 'igra'])),
  hbsag: itemType('Hepatitis B surface antigen (EPP)', dated(['serology'])),
  hcv: itemType('Hepatitis C (EPP)', dated(['serology'])),
  hiv: itemType('HIV (EPP)', dated(['serology'])),
  clearance: itemType('Clearance', [
    { name: 'outcome', label: 'Outcome', type: 'select', options: ['fit', 'fit_with_restrictions', 'not_fit'] },
    { name: 'restrictions', label: 'Restrictions (only with restrictions)', type: 'textarea', max: 500, optional: true },
    { name: 'issued_by', label: 'Issued by', type: 'text', max: 100 },
    { name: 'issuer_organisation', label: 'Issuing organisation', type: 'text', max: 200 },
    { name: 'issued_on', label: 'Issued on', type: 'date', when: 'past' },
    { name: 'review_on', label: 'Review on', type: 'date', when: 'future', after: 'issued_on', optional: true },
    { name: 'epp_cleared', label: 'Cleared for exposure-prone procedures', type: 'boolean' },
  ]),
};
const BASE = ['hep_b', 'mmr', 'varicella', 'tb'];
const EPP = ['hbsag', 'hcv', 'hiv'];

export const occupationalHealth: GroupDeclaration<'occupational_health'> = {
  kind: 'occupational_health',
  title: 'Occupational health request',
  labels: STANDARD_LABELS,
  itemType: (type) => TYPES[type] ?? TYPES.clearance!,
  plan: (details, candidate) => {
    const provider = details.oh_provider as { name: string; email: string } | undefined;
    const actor =
      details.collection_mode === 'provider_provides' && provider
        ? { mode: 'provider_form' as const, name: provider.name, email: provider.email }
        : { mode: 'candidate_upload' as const, ...candidate };
    return [...BASE, ...(details.epp_role ? EPP : []), 'clearance'].map((type) => ({ type, actor }));
  },
  reviewed: true,
  refuse: (type, data) =>
    type === 'clearance' && data.outcome !== 'fit_with_restrictions' && data.restrictions
      ? { restrictions: 'Restrictions go only with fit_with_restrictions' }
      : type === 'clearance' && data.outcome === 'fit_with_restrictions' && !data.restrictions
        ? { restrictions: 'Please fill this in' }
        : undefined,
  unsatisfying: (item) => item.type === 'clearance' && item.data?.outcome === 'not_fit',
  entitlement: 'occupational_health',
  special_category: true,
  retention: { fileDays: 365, dataDays: 2190 },
  pdfLines: (item) => [TYPES[item.type]?.label ?? item.type, ...dataLines(TYPES[item.type] ?? TYPES.clearance!, item)],
};
