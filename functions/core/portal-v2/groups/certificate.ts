import type { FieldSpec } from '../../requests/fields.js';
import type { GroupDeclaration, ItemType } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { DEFAULT_RETENTION, dataLines, itemType } from './common.js';

/** Certificate requests: the candidate uploads each certificate (DBS, right to work, identity, qualification, other); the agency reviews. */

export const CERTIFICATE_KINDS = ['dbs', 'right_to_work', 'identity', 'qualification', 'other'] as const;

const expires: FieldSpec = { name: 'expires_on', label: 'Expires on', type: 'date', when: 'future', optional: true };
const TYPES: Record<(typeof CERTIFICATE_KINDS)[number], ItemType> = {
  dbs: itemType('DBS certificate', [
    { name: 'certificate_number', label: 'Certificate number', type: 'text', pattern: /^\d{12}$/, patternMessage: 'A DBS certificate number is 12 digits' },
    { name: 'issued_on', label: 'Issued on', type: 'date', when: 'past' },
    { name: 'level', label: 'Level', type: 'select', options: ['basic', 'standard', 'enhanced'] },
    { name: 'barred_lists', label: 'Barred lists checked (enhanced only)', type: 'multi', options: ['adults', 'children'] },
    { name: 'workforce', label: 'Workforce', type: 'text', max: 100 },
    { name: 'update_service', label: 'On the DBS Update Service', type: 'boolean' },
    { ...expires, after: 'issued_on' },
  ]),
  right_to_work: itemType('Right to work', [
    { name: 'document_type', label: 'Document type', type: 'text', max: 100 },
    {
      name: 'share_code',
      label: 'Share code',
      type: 'text',
      pattern: /^[A-Z0-9]{9}$/,
      patternMessage: 'A share code is 9 letters and digits',
      optional: true,
      upper: true,
    },
    expires,
  ]),
  identity: itemType('Identity document', [
    { name: 'document_type', label: 'Document type', type: 'text', max: 100 },
    { name: 'expires_on', label: 'Expires on', type: 'date', when: 'future' },
  ]),
  qualification: itemType('Qualification', [
    { name: 'title', label: 'Title', type: 'text', max: 200 },
    { name: 'awarding_body', label: 'Awarding body', type: 'text', max: 200 },
    { name: 'awarded_on', label: 'Awarded on', type: 'date', when: 'past' },
    { ...expires, after: 'awarded_on' },
  ]),
  other: itemType('Other certificate', [{ name: 'description', label: 'What it is', type: 'text', max: 200 }, expires]),
};

type CertificateAsked = { kind: keyof typeof TYPES; label?: string };

export const certificate: GroupDeclaration<'certificate'> = {
  kind: 'certificate',
  title: 'Certificate request',
  labels: STANDARD_LABELS,
  itemType: (type) => TYPES[type as keyof typeof TYPES] ?? TYPES.other,
  plan: (details, candidate) =>
    (details.certificates as CertificateAsked[]).map((c) => ({
      type: c.kind,
      actor: { mode: 'candidate_upload', ...candidate },
      data: c.label ? { label: c.label } : undefined,
    })),
  reviewed: true,
  refuse: (type, data) =>
    type === 'dbs' && data.level !== 'enhanced' && (data.barred_lists as string[]).length > 0
      ? { barred_lists: 'Barred lists are checked only at the enhanced level' }
      : undefined,
  validUntil: (item) => (typeof item.data?.expires_on === 'string' ? item.data.expires_on : null),
  retention: DEFAULT_RETENTION,
  pdfLines: (item) => [TYPES[item.type as keyof typeof TYPES]?.label ?? item.type, ...dataLines(TYPES[item.type as keyof typeof TYPES] ?? TYPES.other, item)],
};
