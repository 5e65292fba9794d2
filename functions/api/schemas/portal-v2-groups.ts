import * as v from 'valibot';
import { CERTIFICATE_KINDS } from '../../core/portal-v2/groups/certificate.js';
import { declarationBySegment, GROUP_DECLARATIONS, GROUP_SEGMENTS } from '../../core/portal-v2/groups/index.js';
import { CSTF_CODES } from '../../core/portal-v2/groups/training.js';
import { PAY_OPTIONS } from '../../core/platform/booking-vocabulary.js';
import { calendarDate, email, idFromString, listQuery, name, notes, positiveId, oneOf, built } from './fields.js';

/** Request schemas of the portal's request groups. */

const wholeNumber = (min: number, max: number) =>
  v.pipe(v.number('A whole number'), v.integer('A whole number'), v.minValue(min, `At least ${min}`), v.maxValue(max, `At most ${max}`));
const unique = <T>(items: T[]) => new Set(items.map((x) => JSON.stringify(x))).size === items.length;

/** What every group's create takes (section 1, "Create, common fields"). */
const common = /* @__PURE__ */ built(() => ({
  candidate_id: positiveId,
  template_id: v.optional(positiveId),
  expiry_days: v.optional(wholeNumber(1, 90), 14),
  notes: v.optional(notes()),
}));

export const TrainingRequestCreate = /* @__PURE__ */ built(() =>
  v.object({
    ...common,
    subjects: v.pipe(
      v.array(oneOf(CSTF_CODES), 'An array of CSTF subject codes'),
      v.minLength(1, 'At least one subject'),
      v.maxLength(CSTF_CODES.length, `At most ${CSTF_CODES.length} subjects`),
      v.check(unique, 'Each subject once'),
    ),
  }),
);

export const OccupationalHealthRequestCreate = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      ...common,
      collection_mode: v.picklist(['candidate_provides', 'provider_provides'], 'One of candidate_provides, provider_provides'),
      oh_provider: v.optional(v.object({ name: name(), organisation: name(200), email })),
      epp_role: v.optional(v.boolean('true or false'), false),
    }),
    v.forward(
      v.check(
        (b) => b.collection_mode !== 'provider_provides' || b.oh_provider !== undefined,
        'Give the OH provider when collection_mode is provider_provides',
      ),
      ['oh_provider'],
    ),
  ),
);

/** The booking kinds: a course of the family; paid as `pay_option` when the candidate books. */
const bookingCreate = /* @__PURE__ */ built(() => ({
  ...common,
  course_id: positiveId,
  pay_option: oneOf(PAY_OPTIONS),
  agency_contact_name: v.optional(name()),
  agency_contact_email: v.optional(email),
}));

/** Practical training: optionally pinned to an event or a location. */
export const PracticalTrainingRequestCreate = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({ ...bookingCreate, location_id: v.optional(positiveId), training_event_id: v.optional(positiveId) }),
    v.forward(
      v.check((b) => b.location_id === undefined || b.training_event_id === undefined, 'Give training_event_id or location_id, not both'),
      ['location_id'],
    ),
  ),
);

/** Life support: a virtual course; the candidate chooses the timeslot (and gives a delivery address) on the invite page. */
export const LifeSupportRequestCreate = /* @__PURE__ */ built(() => v.object(bookingCreate));

export const AppraisalRequestCreate = /* @__PURE__ */ built(() =>
  v.object({ ...common, confirm_with_appraiser: v.optional(v.boolean('true or false'), true) }),
);

export const CertificateRequestCreate = /* @__PURE__ */ built(() =>
  v.object({
    ...common,
    certificates: v.pipe(
      v.array(v.object({ kind: oneOf(CERTIFICATE_KINDS), label: v.optional(name(200)) }), 'An array of certificates'),
      v.minLength(1, 'At least one certificate'),
      v.maxLength(10, 'At most 10 certificates'),
    ),
  }),
);

export const TrainingVerificationRequestCreate = /* @__PURE__ */ built(() =>
  v.object({
    ...common,
    certificates: v.pipe(
      v.array(
        v.object({
          subject: v.optional(oneOf(CSTF_CODES)),
          course_title: name(200),
          completed_on: calendarDate,
          certificate_number: v.optional(name(50)),
          issuer_organisation: name(200),
          issuer_contact_name: name(),
          issuer_contact_email: email,
        }),
        'An array of certificates',
      ),
      v.minLength(1, 'At least one certificate'),
      v.maxLength(10, 'At most 10 certificates'),
    ),
  }),
);

/** Each group's create body, by kind. */
export const GROUP_CREATE_SCHEMAS: Record<string, v.GenericSchema> = {
  training: TrainingRequestCreate,
  occupational_health: OccupationalHealthRequestCreate,
  practical_training: PracticalTrainingRequestCreate,
  life_support: LifeSupportRequestCreate,
  appraisal: AppraisalRequestCreate,
  certificate: CertificateRequestCreate,
  training_verification: TrainingVerificationRequestCreate,
};

/** The create body of the group the path names; for the documents (no path yet), any group's. */
export const groupCreateBody = (_family: unknown, params?: { group?: string }) => {
  const kind = declarationBySegment(params?.group ?? '')?.kind;
  return kind ? GROUP_CREATE_SCHEMAS[kind]! : v.union(Object.values(GROUP_CREATE_SCHEMAS) as [v.GenericSchema, ...v.GenericSchema[]]);
};

export const GROUP_REQUEST_STATUSES = ['pending', 'in_progress', 'awaiting_review', 'completed', 'cancelled', 'expired'] as const;

export const GroupRequestsQuery = /* @__PURE__ */ built(() =>
  v.object({
    status: v.optional(v.pipe(oneOf(GROUP_REQUEST_STATUSES), v.description('Only requests in this status'))),
    candidate_id: v.optional(v.pipe(idFromString, v.description("Only this candidate's requests"))),
    ...listQuery,
  }),
);

export const ItemRejection = /* @__PURE__ */ built(() =>
  v.object({
    reason: v.pipe(notes(500), v.minLength(1, 'Say why, in 1 to 500 characters')),
  }),
);

export const TemplatesQuery = /* @__PURE__ */ built(() =>
  v.object({
    kind: v.optional(
      v.pipe(
        v.picklist(['reference', ...GROUP_DECLARATIONS.map((d) => d.kind)], 'A request kind'),
        v.description('Templates of this request kind (default: reference)'),
      ),
    ),
  }),
);

export { GROUP_SEGMENTS };
