import type { Deps } from '../platform/deps.js';
import { ERASED_NAME, exportFields, type DataSubjectAdapter, type StoredItem } from '../data-rights/adapter.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { DomainError } from '../platform/errors.js';
import { cancelRequest } from '../requests/lifecycle.js';
import { isOpen } from '../requests/status.js';
import type { RequestStatus } from '../requests/shapes.js';
import { references } from './references.js';
import { GROUP_KINDS } from './request-groups.js';
import { isCandidate, isGroupItem, isGroupRequest, isReference, isReferenceRequest, portalV2SubjectFinder } from './subject-finder.js';

/**
 * A portal v2 candidate as a data subject: found by their e-mail address on
 * the candidate and on each request about them (reference requests, request
 * groups); the references and request items (which carry the referee's or
 * provider's address, not the candidate's) belong to them by request id.
 * The candidate's own health items are exported: it is their data. An
 * erasure cancels every open request first through the requests engine (its
 * pages and forms answer 410, nothing is left half-open), then blanks names,
 * contact details and free text, and deletes the items' files. A request item
 * booked through a booking invite stops the erasure while the booking stands:
 * the booking family's own erasure deals with the booking itself.
 */

function sectionOf(item: StoredItem): string | undefined {
  if (isCandidate(item)) return 'candidates';
  if (isReferenceRequest(item)) return 'reference_requests';
  if (isReference(item)) return 'references';
  if (isGroupRequest(item)) return 'request_groups';
  if (isGroupItem(item)) return 'request_items';
  return undefined;
}

/** Tokens and hashes that open the candidate's and third parties' pages stay out of the export. */
function view(deps: Deps, item: StoredItem): unknown {
  const { form_token, submission_token, public_base, ...fields } = exportFields(item, deps.config.serviceTimeZone);
  return fields;
}

function erasedFields(item: StoredItem, now: Date): Record<string, unknown> {
  const stamp = { erased_at: now.toISOString(), updated_at: now.toISOString() };
  if (isCandidate(item)) return { first_name: ERASED_NAME, last_name: '', email: null, phone: null, ...stamp };
  if (isReferenceRequest(item) || isGroupRequest(item)) return { candidate_name: ERASED_NAME, candidate_email: null, notes: null, ...stamp };
  // A reference is about the candidate: the referee's answers and reasons go; who gave it stays on the agency's record of asking.
  if (isReference(item)) return { answers: null, decline_reason: null, ...stamp };
  const file = item.file as { purged_at?: string } | null;
  return {
    data: null,
    rejection_reason: null,
    actor: { ...(item.actor as object), name: ERASED_NAME, email: null },
    ...(file && !file.purged_at ? { file: { ...file, name: ERASED_NAME, purged_at: now.toISOString() } } : {}),
    ...stamp,
  };
}

function files(item: StoredItem) {
  const file = item.file as { key: string; name: string; purged_at?: string | null } | null | undefined;
  if (!isGroupItem(item) || !file || file.purged_at) return [];
  return [
    {
      key: file.key,
      what: `${String(item.type)} file of ${String(item.kind)} request ${String(item.request_id)}`,
      download: `/${String(item.kind)}/${String(item.request_id)}/items/${String(item.id)}/file`,
    },
  ];
}

/** Cancels an open request the usual way; one closed meanwhile is left as it is. */
async function cancelIfOpen(deps: Deps, item: StoredItem): Promise<void> {
  if (!isOpen(item.status as RequestStatus)) return;
  const kind = isReferenceRequest(item) ? references : GROUP_KINDS[String(item.kind)];
  if (!kind) return;
  try {
    await cancelRequest(deps, kind as typeof references, String(item.client_id), Number(item.id));
  } catch (err) {
    if (!(err instanceof DomainError) && !isConditionalCheckFailed(err)) throw err;
  }
}

export const portalV2Subjects: DataSubjectAdapter = {
  ...portalV2SubjectFinder,
  section: sectionOf,
  view,
  erasedFields,
  files,
  // Nothing portal v2 holds is a finance or registration record: nothing is kept.
  kept: () => [],
  beforeErase: async (deps, item) => {
    if (isReferenceRequest(item) || isGroupRequest(item)) await cancelIfOpen(deps, item);
  },
};
