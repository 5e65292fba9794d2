import * as v from 'valibot';
import { GROUP_REQUEST_STATUSES, ITEM_STATUSES, REFERENCE_STATUSES, REQUEST_STATUSES } from '../../core/platform/request-vocabulary.js';
import { int, nullable, str, timestamp } from './response-fields.js';

/** Response shapes of portal v2 (and v1, which answers with the same request groups and candidates); strict, as in ./responses.ts. */

// Contact details are null once the candidate's data was erased (POST /data-subjects/erasures).
export const Candidate = v.strictObject({
  id: int,
  first_name: str,
  last_name: str,
  name: str,
  email: nullable(str),
  phone: nullable(str),
  created_at: timestamp,
});
export const Template = v.strictObject({
  id: int,
  name: str,
  description: str,
  questions: v.array(v.strictObject({ id: str, kind: v.picklist(['rating', 'text']), label: str, required: v.boolean(), weight: v.optional(v.number()) })),
});
/** A request group's template: a preset of the kind's create fields (`GET /templates?kind=`). */
export const RequestTemplate = v.strictObject({ id: int, kind: str, name: str, description: str, preset: v.record(str, v.unknown()) });
export const AnyTemplate = v.union([Template, RequestTemplate]);
export const Reference = v.strictObject({
  id: int,
  uuid: v.pipe(str, v.uuid()),
  reference_request_id: int,
  referee_name: str,
  referee_email: str,
  referee_organisation: str,
  referee_position: str,
  referee_phone: nullable(str),
  relationship_to_candidate: nullable(str),
  status: v.picklist(REFERENCE_STATUSES),
  status_label: str,
  score: nullable(v.number()),
  decline_reason: nullable(str),
  form_url: v.pipe(str, v.url()),
  pdf_url: nullable(v.pipe(str, v.url())),
  sent_at: nullable(timestamp),
  opened_at: nullable(timestamp),
  submitted_at: nullable(timestamp),
  expires_at: timestamp,
  reminder_count: int,
  last_reminder_sent_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
});
/** Ratings are numbers (null when an optional one was left out); text answers are strings. */
export const ReferenceDetail = v.strictObject({ ...Reference.entries, answers: nullable(v.record(str, v.union([str, int, v.null()]))) });
export const ReferenceRequest = v.strictObject({
  id: int,
  uuid: v.pipe(str, v.uuid()),
  candidate_id: int,
  candidate_name: str,
  candidate_email: nullable(str), // null once erased
  template_id: int,
  template_name: str,
  collection_mode: v.picklist(['client_adds', 'candidate_provides']),
  status: v.picklist(REQUEST_STATUSES),
  status_label: str,
  references_required: int,
  references_completed: int,
  is_fully_referenced: v.boolean(),
  notes: nullable(str),
  expires_at: timestamp,
  is_expired: v.boolean(),
  requested_by: int,
  submission_url: nullable(v.pipe(str, v.url())),
  references: v.array(Reference),
  created_at: timestamp,
  updated_at: timestamp,
});
/** One referee in a reminder run: reminded now, or why not (`reminded_recently`, or the reference's status) and when they can be. */
export const ReminderOutcome = v.strictObject({
  reference_id: int,
  referee_name: str,
  reminded: v.boolean(),
  reason: nullable(str),
  next_reminder_at: nullable(timestamp),
});
/** The answer to a reminder run: the request, and what happened for each referee. */
export const RemindedReferenceRequest = v.strictObject({ ...ReferenceRequest.entries, reminders: v.array(ReminderOutcome) });
// Portal v2 request groups.

const RequestFile = v.strictObject({
  name: str,
  content_type: v.picklist(['application/pdf', 'image/jpeg', 'image/png']),
  size: int,
  sha256: str,
  uploaded_at: timestamp,
  scan_status: v.picklist(['not_scanned', 'clean']),
  purged_at: nullable(timestamp),
});
export const GroupItem = v.strictObject({
  id: int,
  uuid: v.pipe(str, v.uuid()),
  request_id: int,
  kind: str,
  type: str,
  status: v.picklist(ITEM_STATUSES),
  status_label: str,
  actor: v.strictObject({ mode: str, name: str, email: nullable(str) }), // email null once the candidate's data was erased
  /** The kind's item fields; null until the actor answers, and in lists and events of occupational health. */
  data: nullable(v.record(str, v.unknown())),
  file: nullable(RequestFile),
  form_url: nullable(v.pipe(str, v.url())),
  booking_invite_id: nullable(int),
  booking_id: nullable(int),
  valid_until: nullable(str),
  rejection_reason: nullable(str),
  submitted_at: nullable(timestamp),
  reviewed_at: nullable(timestamp),
  reviewed_by: nullable(int),
  reminder_count: int,
  last_reminder_sent_at: nullable(timestamp),
  expires_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
});
export const GroupRequest = v.strictObject({
  id: int,
  uuid: v.pipe(str, v.uuid()),
  kind: str,
  candidate_id: int,
  candidate_name: str,
  candidate_email: nullable(str), // null once erased
  template_id: nullable(int),
  template_name: nullable(str),
  status: v.picklist(GROUP_REQUEST_STATUSES),
  status_label: str,
  outcome: nullable(v.picklist(['satisfied', 'not_satisfied'])),
  items_required: int,
  items_completed: int,
  is_complete: v.boolean(),
  notes: nullable(str),
  expires_at: timestamp,
  is_expired: v.boolean(),
  requested_by: int,
  submission_url: nullable(v.pipe(str, v.url())),
  details: v.record(str, v.unknown()),
  items: v.array(GroupItem),
  created_at: timestamp,
  updated_at: timestamp,
});
