import { randomUUID } from 'node:crypto';
import { getCandidateItem, candidateName } from './candidates.js';
import { getClient, type ClientAccount } from '../access/clients.js';
import { clientNumber } from '../access/account-settings.js';
import { emailPut } from '../events/outbox.js';
import { candidateInvitation, refereeInvitation } from '../messaging/email-templates.js';
import { addSeconds } from '../platform/clock.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import type { Page } from '../platform/pagination.js';
import { MAX_REFEREES } from '../platform/request-vocabulary.js';
import { part, transact, type Part } from '../platform/transact.js';
import { cancelRequest } from '../requests/lifecycle.js';
import { linkTokenPart, newLinkToken } from '../requests/links.js';
import { refuseCandidateAddress } from '../requests/recipients.js';
import { sendReminders as remind } from '../requests/reminders.js';
import {
  findItem,
  listRequests,
  newItemParts,
  newRequestPart,
  requestChange,
  requestEvent,
  requireOpen,
  requireRequest,
  type RequestFilter,
} from '../requests/store.js';
import {
  FORM_LINK,
  links,
  references,
  SUBMISSION_LINK,
  toReferenceView,
  toRequestView,
  type CollectionMode,
  type RefereeInput,
  type ReferenceItem,
  type RequestItem,
  type RequestView,
} from './references.js';
import { listTemplates } from './templates.js';

/** Reference requests, as an agency sees and changes them (portal API version 2), on the request engine. */

export { MAX_REFEREES };
export type { RequestFilter };

export interface NewReferenceRequest {
  candidate_id: number;
  collection_mode: CollectionMode;
  references_required: number;
  template_id: number;
  expiry_days: number;
  notes?: string;
  referees?: RefereeInput[];
}

export const SELF_REFERENCE_MESSAGE = "A referee must be someone other than the candidate: this is the candidate's own e-mail address";

/** Refuses a referee who is the candidate, as an error on `field(i)` (the i-th referee's e-mail field). */
export function refuseSelfReference(candidateEmail: string, referees: Pick<RefereeInput, 'referee_email'>[], field: (index: number) => string): void {
  refuseCandidateAddress(
    candidateEmail,
    referees.map((r) => r.referee_email),
    field,
    SELF_REFERENCE_MESSAGE,
  );
}

/** New references for referees, each with its form link and its invitation e-mail. */
export async function newReferences(
  deps: Deps,
  request: RequestItem,
  agency: string,
  referees: RefereeInput[],
): Promise<{ items: ReferenceItem[]; parts: Part[] }> {
  const now = deps.clock().toISOString();
  const items: ReferenceItem[] = [];
  const parts: Part[] = [];
  for (const referee of referees) {
    const id = await nextId(deps, references.family, references.counters.item);
    const item: ReferenceItem = {
      id,
      uuid: randomUUID(),
      reference_request_id: request.id,
      client_id: request.client_id,
      referee_name: referee.referee_name,
      referee_email: referee.referee_email,
      referee_organisation: referee.referee_organisation,
      referee_position: referee.referee_position,
      referee_phone: referee.referee_phone ?? null,
      relationship_to_candidate: referee.relationship_to_candidate ?? null,
      // The invitation goes in the same transaction, so the reference is sent the moment it exists.
      status: 'sent',
      score: null,
      decline_reason: null,
      form_token: newLinkToken(),
      answers: null,
      sent_at: now,
      opened_at: null,
      submitted_at: null,
      expires_at: request.expires_at,
      reminder_count: 0,
      last_reminder_sent_at: null,
      created_at: now,
      updated_at: now,
    };
    items.push(item);
    parts.push(
      ...newItemParts(deps, references, request, item),
      linkTokenPart(deps, FORM_LINK, item.form_token, { client_id: request.client_id, reference_request_id: request.id, reference_id: id }, `link ${id}`),
      part(
        `email ${id}`,
        emailPut(deps, {
          to: item.referee_email,
          ...refereeInvitation({
            refereeName: item.referee_name,
            candidateName: request.candidate_name,
            agency,
            formUrl: links.form(request.public_base, item.form_token),
            expiresAt: request.expires_at,
          }),
        }),
      ),
    );
  }
  return { items, parts };
}

async function requireClient(deps: Deps, clientId: string): Promise<ClientAccount> {
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', `No client ${clientId}`);
  return client;
}

export async function createReferenceRequest(deps: Deps, clientId: string, input: NewReferenceRequest, base: string): Promise<RequestView> {
  const client = await requireClient(deps, clientId);
  if (!client.referenceRequestsEnabled) throw new DomainError('forbidden', 'This account does not include reference requests');
  const [candidate, templates] = await Promise.all([getCandidateItem(deps, clientId, input.candidate_id), listTemplates(deps)]);
  if (!candidate) throw fieldRefusal('/candidate_id', `No candidate ${input.candidate_id}`);
  const template = templates.find((t) => t.id === input.template_id);
  if (!template) throw fieldRefusal('/template_id', `No template ${input.template_id}`);
  const referees = input.referees ?? [];
  if (input.collection_mode === 'client_adds' && referees.length === 0)
    throw fieldRefusal('/referees', 'Give at least one referee when collection_mode is client_adds');
  if (input.collection_mode === 'candidate_provides' && referees.length > 0)
    throw fieldRefusal('/referees', 'The candidate provides the referees when collection_mode is candidate_provides');
  refuseSelfReference(candidate.email, referees, (i) => `/referees/${i}/referee_email`);

  const now = deps.clock();
  const id = await nextId(deps, references.family, references.counters.request);
  const expiresAt = addSeconds(now, input.expiry_days * 86_400).toISOString();
  const request: RequestItem = {
    id,
    uuid: randomUUID(),
    client_id: clientId,
    candidate_id: candidate.id,
    candidate_name: candidateName(candidate),
    candidate_email: candidate.email,
    template_id: template.id,
    template_name: template.name,
    collection_mode: input.collection_mode,
    status: 'pending',
    references_required: input.references_required,
    references_completed: 0,
    notes: input.notes ?? null,
    expires_at: expiresAt,
    requested_by: await clientNumber(deps, clientId),
    submission_token: input.collection_mode === 'candidate_provides' ? newLinkToken() : null,
    public_base: base,
    version: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const { items, parts } = await newReferences(deps, request, client.name, referees);
  const submission = request.submission_token
    ? [
        linkTokenPart(deps, SUBMISSION_LINK, request.submission_token, { client_id: clientId, reference_request_id: id }),
        part(
          'candidate email',
          emailPut(deps, {
            to: candidate.email,
            ...candidateInvitation({
              candidateName: request.candidate_name,
              agency: client.name,
              submissionUrl: links.submission(base, request.submission_token),
              required: request.references_required,
              expiresAt,
            }),
          }),
        ),
      ]
    : [];
  await transact(deps, [newRequestPart(deps, references, request), ...parts, requestEvent(deps, references, 'created', request, items), ...submission]);
  return toRequestView(request, items, now);
}

export async function getReferenceRequest(deps: Deps, clientId: string, id: number): Promise<RequestView> {
  const { request, items } = await requireRequest(deps, references, clientId, id);
  return toRequestView(request, items, deps.clock());
}

/** The client's requests, newest first, with their references. */
export const listReferenceRequests = (deps: Deps, clientId: string, filter: RequestFilter): Promise<Page<RequestView>> =>
  listRequests(deps, references, clientId, filter);

/** Cancels a request: outstanding references are cancelled and their links stop working. */
export const cancelReferenceRequest = (deps: Deps, clientId: string, id: number): Promise<RequestView> => cancelRequest(deps, references, clientId, id);

/** Adds a referee to an open request; they are e-mailed at once. */
export async function addReferee(deps: Deps, clientId: string, id: number, referee: RefereeInput): Promise<RequestView> {
  const client = await requireClient(deps, clientId);
  return retryOnConflict(async () => {
    const { request, items: refs } = await requireRequest(deps, references, clientId, id);
    const now = deps.clock();
    requireOpen(references, request, now);
    if (refs.length >= MAX_REFEREES) throw new DomainError('invalid-state', `A request has at most ${MAX_REFEREES} referees`);
    refuseSelfReference(request.candidate_email, [referee], () => '/referee_email');
    const { items, parts } = await newReferences(deps, request, client.name, [referee]);
    const { after, part: requestPart } = requestChange(deps, references, request, {});
    await transact(deps, [requestPart, ...parts]);
    return toRequestView(after, [...refs, ...items], now);
  });
}

/**
 * Reminds referees who have not answered, at most once per referee per 24
 * hours; the request comes back with `reminders`: for each referee, whether
 * they were reminded now, and if not why and when they can be.
 */
export async function sendReminders(deps: Deps, clientId: string, id: number) {
  const { request, reminders_sent, outcomes } = await remind(deps, references, clientId, id);
  const reminders = outcomes.map(({ item, reminded, reason, next_reminder_at }) => ({
    reference_id: item.id,
    referee_name: item.referee_name,
    reminded,
    reason,
    next_reminder_at,
  }));
  return { request: { ...request, reminders }, reminders_sent };
}

/** A reference of the caller's, with the request it belongs to. Another client's has no pointer here: not-found. */
export async function findReference(deps: Deps, clientId: string, referenceId: number) {
  const { request, item } = await findItem(deps, references, clientId, referenceId);
  return { request, reference: item };
}

export async function getReference(deps: Deps, clientId: string, referenceId: number) {
  const { request, reference } = await findReference(deps, clientId, referenceId);
  return { ...toReferenceView(reference, request, deps.clock()), answers: reference.answers };
}
