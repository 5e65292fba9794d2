import type { GroupDeclaration, GroupItem } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { DEFAULT_RETENTION, REGISTER_PATTERNS, dataLines, itemType } from './common.js';

/**
 * Appraisal requests: the candidate uploads their last appraisal; the agency
 * reviews it and, unless `confirm_with_appraiser` is false, the appraiser
 * named in it is e-mailed a form to confirm it (the item
 * `appraiser_confirmation`, added when the appraisal is submitted).
 */

const APPRAISAL = itemType('Appraisal', [
  { name: 'appraisal_date', label: 'Appraisal date', type: 'date', when: 'past' },
  { name: 'appraiser_name', label: "Appraiser's name", type: 'text', max: 100 },
  { name: 'appraiser_email', label: "Appraiser's e-mail address", type: 'email' },
  { name: 'appraiser_register', label: "Appraiser's register", type: 'select', options: ['nmc', 'gmc', 'hcpc', 'other'] },
  { name: 'appraiser_number', label: "Appraiser's registration number", type: 'text', max: 30, upper: true },
  { name: 'organisation', label: 'Organisation', type: 'text', max: 200 },
  { name: 'outcome', label: 'Outcome', type: 'select', options: ['satisfactory', 'satisfactory_with_actions', 'unsatisfactory'] },
  { name: 'next_due_on', label: 'Next appraisal due on', type: 'date', when: 'future', after: 'appraisal_date' },
]);
const CONFIRMATION = itemType(
  'Appraiser confirmation',
  [
    { name: 'issuer_name', label: 'Your name', type: 'text', max: 100 },
    { name: 'issuer_position', label: 'Your position', type: 'text', max: 100 },
  ],
  false,
);

export const appraisal: GroupDeclaration<'appraisal'> = {
  kind: 'appraisal',
  title: 'Appraisal request',
  labels: STANDARD_LABELS,
  itemType: (type) => (type === 'appraiser_confirmation' ? CONFIRMATION : APPRAISAL),
  plan: (_details, candidate) => [{ type: 'appraisal', actor: { mode: 'candidate_upload', ...candidate } }],
  reviewed: true,
  follow: (item: GroupItem, request) =>
    item.type === 'appraisal' && request.details.confirm_with_appraiser !== false && item.data
      ? [
          {
            type: 'appraiser_confirmation',
            actor: { mode: 'appraiser_form', name: String(item.data.appraiser_name), email: String(item.data.appraiser_email) },
          },
        ]
      : [],
  refuse: (type, data) => {
    if (type !== 'appraisal') return undefined;
    const register = REGISTER_PATTERNS[data.appraiser_register as keyof typeof REGISTER_PATTERNS];
    return register && !register.pattern.test(String(data.appraiser_number)) ? { appraiser_number: register.message } : undefined;
  },
  unsatisfying: (item) => item.type === 'appraisal' && item.data?.outcome === 'unsatisfactory',
  validUntil: (item) => (typeof item.data?.next_due_on === 'string' ? item.data.next_due_on : null),
  retention: DEFAULT_RETENTION,
  pdfLines: (item) => [
    item.type === 'appraisal' ? 'Appraisal' : 'Appraiser confirmation',
    ...dataLines(item.type === 'appraisal' ? APPRAISAL : CONFIRMATION, item),
  ],
};
