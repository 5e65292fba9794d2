import { linkTo } from '../../api/routes/operation.js';
import * as portalV2 from '../../api/routes/portal-v2.js';
import { clientKeys } from '../access/clients.js';
import { referenceReminder } from '../messaging/email-templates.js';
import { upgradeScanned } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import type { LinkKind, RequestKind } from '../requests/kind.js';
import { effectiveItemStatus, effectiveStatus, isExpired } from '../requests/status.js';
import { purgeIndex, retentionEnds } from '../requests/group-kind.js';
import { loadRequest } from '../requests/store.js';
import { DEFAULT_RETENTION } from './groups/common.js';
import type { Answer } from './templates.js';

/**
 * Reference requests, the first kind of the request engine: keys, stored
 * shapes, labels and the views the specification defines. A request and its
 * references share the client's partition under two prefixes, so listing
 * requests reads no reference and a request's references are one query.
 */

export { REQUEST_STATUSES, type RequestStatus } from '../platform/request-vocabulary.js';
import type { REFERENCE_STATUSES } from '../platform/request-vocabulary.js';
import type { RequestStatus } from '../platform/request-vocabulary.js';

export type ReferenceStatus = (typeof REFERENCE_STATUSES)[number];
export type CollectionMode = 'client_adds' | 'candidate_provides';

export const REQUEST_LABELS: Record<RequestStatus, string> = {
  pending: 'Awaiting referees',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
export const REFERENCE_LABELS: Record<ReferenceStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  opened: 'Opened',
  completed: 'Completed',
  declined: 'Declined',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Reference statuses still waiting for their referee. */
export const OUTSTANDING: readonly ReferenceStatus[] = ['pending', 'sent', 'opened'];

export interface RefereeInput {
  referee_name: string;
  referee_email: string;
  referee_organisation: string;
  referee_position: string;
  referee_phone?: string;
  relationship_to_candidate?: string;
}

export interface RequestItem {
  id: number;
  uuid: string;
  client_id: string;
  candidate_id: number;
  candidate_name: string;
  candidate_email: string;
  template_id: number;
  template_name: string;
  collection_mode: CollectionMode;
  status: RequestStatus;
  references_required: number;
  references_completed: number;
  notes: string | null;
  expires_at: string;
  requested_by: number;
  submission_token: string | null;
  /** The portal base URL the request was made through: links in e-mails, events and views hang off it. */
  public_base: string;
  version: number;
  created_at: string;
  updated_at: string;
  /** When it was cancelled or expired (a completed request closes at its expiry); absent on requests closed before retention. */
  closed_at?: string | null;
  /** When the purge schedule blanked it, its retention over. */
  purged_at?: string | null;
}

export interface ReferenceItem {
  id: number;
  uuid: string;
  reference_request_id: number;
  client_id: string;
  referee_name: string;
  referee_email: string;
  referee_organisation: string;
  referee_position: string;
  referee_phone: string | null;
  relationship_to_candidate: string | null;
  status: ReferenceStatus;
  score: number | null;
  decline_reason: string | null;
  form_token: string;
  answers: Record<string, Answer> | null;
  sent_at: string | null;
  opened_at: string | null;
  submitted_at: string | null;
  expires_at: string;
  reminder_count: number;
  last_reminder_sent_at: string | null;
  created_at: string;
  updated_at: string;
}

const CLIENT = TABLE_KEYS.client;
const FORM = TABLE_KEYS.referenceForm;
const SUBMISSION = TABLE_KEYS.referenceSubmission;
const OPEN = GSI1_KEYS.openReferenceRequests;
export const referenceKeys = {
  request: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.referenceRequest, padId(id)) }),
  requestPrefix: CLIENT.sk.referenceRequest,
  reference: (clientId: string, requestId: number, id: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.reference, padId(requestId), padId(id)),
  }),
  /** Where the references of one request begin, for begins_with. */
  referencesOf: (requestId: number) => key(CLIENT.sk.reference, padId(requestId), ''),
  /** A client's reference by id: a pointer to its request, written with it (consistent, and scoped to the client). */
  referencePointer: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.referencePointer, padId(id)) }),
  /** Open requests by expiry, for the sweeper; removed once a request is cancelled or expired. */
  openPartition: OPEN.pk,
  open: (expiresAt: string, clientId: string, id: number) => ({ gsi1pk: OPEN.pk, gsi1sk: key(OPEN.sk.open, expiresAt, clientId, id) }),
  formToken: (token: string) => ({ pk: key(FORM.pk, token), sk: FORM.sk.form }),
  submissionToken: (token: string) => ({ pk: key(SUBMISSION.pk, token), sk: SUBMISSION.sk.submission }),
};

/** The referee's form, one link per reference. */
export const FORM_LINK: LinkKind = { entity: 'reference-form', key: referenceKeys.formToken };
/** The candidate's page where they name their referees, one link per request. */
export const SUBMISSION_LINK: LinkKind = { entity: 'reference-submit', key: referenceKeys.submissionToken };

export { effectiveStatus, isExpired };

export const effectiveReferenceStatus = (ref: ReferenceItem, request: RequestItem, now: Date): ReferenceStatus =>
  effectiveItemStatus(ref, request, OUTSTANDING, now);

/** What a request's status becomes from its references (open requests only). */
export function derivedStatus(request: Pick<RequestItem, 'references_required'>, references: Pick<ReferenceItem, 'status'>[]): RequestStatus {
  const completed = references.filter((r) => r.status === 'completed').length;
  if (completed >= request.references_required) return 'completed';
  return references.some((r) => r.status === 'opened' || r.status === 'completed' || r.status === 'declined') ? 'in_progress' : 'pending';
}

/** Links in views, e-mails and events, derived from the route table. */
export const links = {
  form: (base: string, token: string) => linkTo(base, portalV2.showReferenceForm, { token }),
  submission: (base: string, token: string) => linkTo(base, portalV2.showRefereeSubmission, { token }),
  pdf: (base: string, id: number) => linkTo(base, portalV2.downloadReferencePdf, { id }),
};

export function toReferenceView(ref: ReferenceItem, request: RequestItem, now: Date) {
  const status = effectiveReferenceStatus(ref, request, now);
  return {
    id: ref.id,
    uuid: ref.uuid,
    reference_request_id: ref.reference_request_id,
    referee_name: ref.referee_name,
    referee_email: ref.referee_email,
    referee_organisation: ref.referee_organisation,
    referee_position: ref.referee_position,
    referee_phone: ref.referee_phone,
    relationship_to_candidate: ref.relationship_to_candidate,
    status,
    status_label: REFERENCE_LABELS[status],
    score: ref.score,
    decline_reason: ref.decline_reason,
    form_url: links.form(request.public_base, ref.form_token),
    pdf_url: ref.status === 'completed' ? links.pdf(request.public_base, ref.id) : null,
    sent_at: ref.sent_at,
    opened_at: ref.opened_at,
    submitted_at: ref.submitted_at,
    expires_at: ref.expires_at,
    reminder_count: ref.reminder_count,
    last_reminder_sent_at: ref.last_reminder_sent_at,
    created_at: ref.created_at,
    updated_at: ref.updated_at,
  };
}

export function toRequestView(r: RequestItem, references: ReferenceItem[], now: Date) {
  const status = effectiveStatus(r, now);
  return {
    id: r.id,
    uuid: r.uuid,
    candidate_id: r.candidate_id,
    candidate_name: r.candidate_name,
    candidate_email: r.candidate_email,
    template_id: r.template_id,
    template_name: r.template_name,
    collection_mode: r.collection_mode,
    status,
    status_label: REQUEST_LABELS[status],
    references_required: r.references_required,
    references_completed: r.references_completed,
    is_fully_referenced: r.references_completed >= r.references_required,
    notes: r.notes,
    expires_at: r.expires_at,
    is_expired: isExpired(r, now),
    requested_by: r.requested_by,
    submission_url: r.submission_token ? links.submission(r.public_base, r.submission_token) : null,
    references: references.map((ref) => toReferenceView(ref, r, now)),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
export type RequestView = ReturnType<typeof toRequestView>;

/**
 * Retention: references and their requests are safe-recruitment records like
 * the request groups, so they keep the groups' default, six years from
 * closing; then the hourly purge schedule (request-purge.ts) blanks who and
 * what. The candidate's id, dates, statuses, counts and scores stay.
 */
export const REFERENCE_RETENTION_DAYS = DEFAULT_RETENTION.dataDays;
/** The purge index partition of closed reference requests, beside the request groups' kinds. */
export const REFERENCE_PURGE_KIND = 'reference-requests';
export const REQUEST_PURGED = { candidate_name: 'Erased', candidate_email: null, notes: null } as const;
export const REFERENCE_PURGED = {
  referee_name: 'Erased',
  referee_email: '',
  referee_organisation: '',
  referee_position: '',
  referee_phone: null,
  relationship_to_candidate: null,
  answers: null,
  decline_reason: null,
} as const;
export const referencePurgeIndex = (request: Pick<RequestItem, 'client_id' | 'id'>, closedAt: string) =>
  purgeIndex(REFERENCE_PURGE_KIND, retentionEnds(closedAt, REFERENCE_RETENTION_DAYS), request.client_id, request.id);

/**
 * Gives reference requests closed before retention their closing and a place
 * in the purge index. Their last change is taken as the closing (closing was
 * their last write, or an erasure after it). Only requests out of every index
 * and without `closed_at` are written: safe to run again and while the API serves.
 */
export const backfillReferenceRetention = (deps: Deps): Promise<number> =>
  upgradeScanned(
    deps,
    { expression: 'entity = :entity AND attribute_not_exists(closed_at) AND attribute_not_exists(gsi1pk)', values: { ':entity': 'reference-request' } },
    (request) => ({ closed_at: request.updated_at, ...referencePurgeIndex(request as unknown as RequestItem, String(request.updated_at)) }),
    { expression: 'attribute_exists(pk) AND attribute_not_exists(closed_at) AND attribute_not_exists(gsi1pk)' },
  );

/** Reference requests as a kind of the request engine. */
export const references: RequestKind<'portal-v2', RequestItem, ReferenceItem, RequestView> = {
  family: 'portal-v2',
  entities: { request: 'reference-request', item: 'reference', pointer: 'reference-pointer' },
  fields: { requestId: 'reference_request_id' },
  counters: { request: 'reference-request', item: 'reference' },
  keys: {
    request: referenceKeys.request,
    requestPrefix: referenceKeys.requestPrefix,
    item: referenceKeys.reference,
    itemsOf: referenceKeys.referencesOf,
    itemPointer: referenceKeys.referencePointer,
    openPartition: referenceKeys.openPartition,
    open: referenceKeys.open,
  },
  // Closed: kept for the retention, then purged.
  onClose: (request, at) => ({ closed_at: at, ...referencePurgeIndex(request, at) }),
  outstanding: OUTSTANDING,
  remindable: ['sent', 'opened'],
  events: {
    created: 'reference_request.created',
    completed: 'reference_request.completed',
    cancelled: 'reference_request.cancelled',
    expired: 'reference_request.expired',
  },
  view: (request, items, now) => toRequestView(request, items, now),
  reminderEmail: ({ request, item, agency }) => ({
    to: item.referee_email,
    ...referenceReminder({
      refereeName: item.referee_name,
      candidateName: request.candidate_name,
      agency,
      formUrl: links.form(request.public_base, item.form_token),
      expiresAt: item.expires_at,
    }),
  }),
  texts: {
    noRequest: (id) => `No reference request ${id}`,
    noItem: (id) => `No reference ${id}`,
    closed: (id, status) => `Reference request ${id} is ${status}`,
  },
};

/** A request and its references, read consistently. */
export async function loadReferenceRequest(
  deps: Deps,
  clientId: string,
  id: number,
): Promise<{ request: RequestItem; references: ReferenceItem[] } | undefined> {
  const loaded = await loadRequest(deps, references, clientId, id);
  return loaded && { request: loaded.request, references: loaded.items };
}
