import * as v from 'valibot';
import { MAX_REFEREES, REQUEST_STATUSES } from '../../core/platform/request-vocabulary.js';
import { email, idFromString, listQuery, name, notes, phone, positiveId, oneOf, built } from './fields.js';

/** Request schemas of the portal family; the OpenAPI document is generated from these too. */

const wholeNumber = (min: number, max: number) =>
  v.pipe(v.number('A whole number'), v.integer('A whole number'), v.minValue(min, `At least ${min}`), v.maxValue(max, `At most ${max}`));

export const RefereeInput = /* @__PURE__ */ built(() =>
  v.object({
    referee_name: name(),
    referee_email: email,
    referee_organisation: name(200),
    referee_position: name(),
    referee_phone: v.optional(phone),
    relationship_to_candidate: v.optional(name(200)),
  }),
);

export const ReferenceRequestCreate = /* @__PURE__ */ built(() =>
  v.object({
    candidate_id: positiveId,
    collection_mode: v.picklist(['client_adds', 'candidate_provides'], 'One of client_adds, candidate_provides'),
    references_required: v.optional(wholeNumber(1, 10), 2),
    template_id: positiveId,
    expiry_days: v.optional(wholeNumber(1, 90), 14),
    notes: v.optional(notes()),
    referees: v.optional(v.pipe(v.array(RefereeInput, 'An array of referees'), v.maxLength(MAX_REFEREES, `At most ${MAX_REFEREES} referees`))),
  }),
);

export const ReferenceRequestsQuery = /* @__PURE__ */ built(() =>
  v.object({
    status: v.optional(v.pipe(oneOf(REQUEST_STATUSES), v.description('Only requests in this status'))),
    candidate_id: v.optional(v.pipe(idFromString, v.description("Only this candidate's requests"))),
    ...listQuery,
  }),
);

export const CandidateCreate = /* @__PURE__ */ built(() => v.object({ first_name: name(), last_name: name(), email, phone: v.optional(phone) }));
