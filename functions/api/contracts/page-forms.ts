import type { FamilyId } from '../../core/platform/families.js';

/**
 * The forms the public pages post (`application/x-www-form-urlencoded`, as a
 * browser sends them), for the documents: every value is text, checked by
 * the page, which answers a refused form as the page again with 422. A
 * field a page does not read is ignored, as browsers send what a form holds.
 */

type Field = readonly [name: string, description: string, required?: boolean];

const CANDIDATE: Field[] = [
  ['first_name', "The candidate's first name", true],
  ['last_name', "The candidate's last name", true],
  ['email', "The candidate's e-mail address", true],
  ['phone', "The candidate's telephone number (07700 900123 or +447700900123)", true],
  ['job_role', "The candidate's job role", true],
];
const NMC_REQUIRED: Field = ['nmc_number', 'The NMC PIN (12A3456B)', true];
const NMC_OPTIONAL: Field = ['nmc_number', 'The NMC PIN (12A3456B), if the candidate has one'];
const SLOT: Field = ['slot', 'The chosen time, YYYY-MM-DDTHH:MM (its option value)', true];
const ADDRESS: Field[] = [
  ['line1', 'Delivery address, first line (a course with equipment)'],
  ['line2', 'Delivery address, second line'],
  ['town', 'Delivery address, town (a course with equipment)'],
  ['postcode', 'Delivery address, UK postcode in either case (a course with equipment)'],
];
const NONE: Field[] = [];

const INVITE = [...CANDIDATE, NMC_OPTIONAL];

/** The fields each page post takes, by family and operation. */
const FORMS: Partial<Record<FamilyId, Record<string, Field[]>>> = {
  'clinical-interview': {
    submitBookingPage: [['interview_type_id', 'The chosen interview type', true], SLOT, ...CANDIDATE, NMC_REQUIRED],
    submitPaymentPage: NONE,
  },
  'portal-v2': {
    submitReferenceForm: [
      ['action', '`decline` to decline the reference; anything else submits the answers'],
      ['reason', 'Why the referee declines (with action=decline)'],
      ['q_{question id}', "An answer to the template's question of that id (one field per question)"],
    ],
    submitReferees: [
      [
        'r{n}_referee_name',
        'Referee n (1, 2, …): the name, e-mail (r{n}_referee_email), organisation, position, phone and relationship_to_candidate fields of each referee; a row left blank is skipped',
      ],
    ],
    submitRequestForm: [
      ['item_id', 'The item answered', true],
      ['{field}', "The item's own fields, as its page shows them"],
    ],
    submitRequestSubmission: [
      ['item_id', 'The item answered', true],
      ['{field}', "The item's own fields, as its page shows them"],
    ],
  },
  'practical-training': {
    submitBookingPage: [['course_id', 'The chosen course'], ['training_event_id', 'The chosen date (training event)', true], ...INVITE],
    submitInvitePage: INVITE,
    holdInviteSeat: [['training_event_id', 'The training event whose seat to hold', true]],
    releaseInviteSeat: NONE,
    submitPaymentPage: NONE,
  },
  'virtual-life-support': {
    submitBookingPage: [['course_id', 'The chosen course'], SLOT, ...INVITE, ...ADDRESS],
    submitInvitePage: [...INVITE, ...ADDRESS],
    holdInviteSeat: [SLOT],
    releaseInviteSeat: NONE,
    submitPaymentPage: NONE,
  },
};

/** Example values, by field name (a placeholder name takes its first instance). */
const EXAMPLES: Record<string, string> = {
  first_name: 'Kate',
  last_name: 'Marsden',
  email: 'kate.marsden@example.org',
  phone: '07700 900123',
  job_role: 'Registered Nurse',
  nmc_number: '12A3456B',
  slot: '2026-12-01T09:00',
  interview_type_id: '1',
  training_event_id: '12',
  course_id: '3',
  line1: '1 Park Row',
  town: 'Leeds',
  postcode: 'ls1 5hn',
  action: 'submit',
  'q_{question id}': '5',
  'r{n}_referee_name': 'Dr Amy Shah',
  item_id: '71',
};
const exampleName = (name: string) => name.replace('{question id}', 'punctuality').replace('{n}', '1').replace('{field}', 'answer');

/** The documented form body of a page post (its schema and an example), or undefined for another operation. */
export function pageForm(
  family: FamilyId,
  operationId: string,
  contract: 'spec' | 'project',
): { schema: Record<string, unknown>; example: Record<string, string> } | undefined {
  const fields = FORMS[family]?.[operationId];
  if (!fields) return undefined;
  const required = fields.filter(([, , r]) => r).map(([name]) => name);
  const example = Object.fromEntries(
    fields.filter(([name]) => EXAMPLES[name] ?? name === '{field}').map(([name]) => [exampleName(name), EXAMPLES[name] ?? 'Yes']),
  );
  const schema = {
    type: 'object',
    properties: Object.fromEntries(fields.map(([name, description]) => [name, { type: 'string', description, 'x-contract': contract }])),
    ...(required.length ? { required } : {}),
    description: fields.length ? "The page's form, as a browser posts it" : 'Nothing: the button posts an empty form',
  };
  return { schema, example };
}
