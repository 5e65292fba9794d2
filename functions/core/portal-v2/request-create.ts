import { randomUUID } from 'node:crypto';
import { getClient, type ClientAccount } from '../access/clients.js';
import { clientNumber } from '../access/account-settings.js';
import { addSeconds } from '../platform/clock.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { wallClock } from '../platform/time.js';
import { transact } from '../platform/transact.js';
import type { GroupDeclaration, GroupRequest } from '../requests/group.js';
import { toGroupView, type GroupEngineKind, type GroupRequestView } from '../requests/group-kind.js';
import { newLinkToken } from '../requests/links.js';
import { refuseCandidateAddress } from '../requests/recipients.js';
import { newRequestPart, requestEvent } from '../requests/store.js';
import type { InvitedCandidate, PlannedInvite } from './booking-invites.js';
import { candidateName, getCandidateItem } from './candidates.js';
import { requestLinkPart } from './request-links.js';
import { getRequestTemplate } from './request-templates.js';
import { candidateActs, groupLinks, newGroupItems, requireEntitlement, SELF_ADDRESS_MESSAGE, type NewGroupRequest } from './group-engine.js';

/**
 * Creating a request of a group: apart
 * from the other operations on requests. It takes the group's engine kind,
 * so a function for one fixed group carries only that group, and a booking
 * kind's invites from its caller (`invites`: booking-invites.ts, which loads
 * the course families' invite engines), so the other groups never load them.
 */

/** How the new request's booking items get their invites (a booking kind's create passes bookingInvites'). */
export type InvitePlanner = (
  client: ClientAccount,
  request: GroupRequest,
  candidate: InvitedCandidate,
) => ((item: { id: number }) => Promise<PlannedInvite>) | undefined;

async function requireClient(deps: Deps, clientId: string): Promise<ClientAccount> {
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', `No client ${clientId}`);
  return client;
}

/** A new request of the kind for one of the client's candidates, its items, links, e-mails and event in one transaction. */
export async function createRequestOfKind(
  deps: Deps,
  clientId: string,
  kind: GroupEngineKind,
  input: NewGroupRequest,
  base: string,
  invites?: InvitePlanner,
): Promise<GroupRequestView> {
  const decl = kind.declaration;
  const client = await requireClient(deps, clientId);
  requireEntitlement(client, decl);
  const candidate = await getCandidateItem(deps, clientId, input.candidate_id);
  if (!candidate) throw fieldRefusal('/candidate_id', `No candidate ${input.candidate_id}`);
  const template = input.template_id === undefined ? undefined : await getRequestTemplate(deps, decl.kind, input.template_id);
  if (input.template_id !== undefined && !template) throw fieldRefusal('/template_id', `No ${decl.kind} template ${input.template_id}`);
  const { candidate_id: _c, template_id: _t, expiry_days, notes, ...fields } = input;
  // A template presets the kind's fields; the body's own fields win.
  const details = { ...(template?.preset ?? {}), ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
  const refused = decl.refuseCreate?.(details, wallClock(deps.clock(), deps.config.serviceTimeZone).date);
  if (refused) throw fieldRefusal(refused.pointer, refused.detail);
  const who = { name: candidateName(candidate), email: candidate.email };
  const plans = decl.plan(details, who);
  if (plans.length === 0) throw fieldRefusal('', 'The request asks for nothing: give the fields of the kind, or a template that presets them');
  refuseCandidateAddress(
    candidate.email,
    plans.map((p) => (candidateActs(p.actor.mode) ? '' : p.actor.email)),
    (i) => thirdPartyPointer(decl, details, i),
    SELF_ADDRESS_MESSAGE,
  );

  const now = deps.clock();
  const id = await nextId(deps, kind.family, kind.counters.request);
  const request: GroupRequest = {
    id,
    uuid: randomUUID(),
    kind: decl.kind,
    client_id: clientId,
    candidate_id: candidate.id,
    candidate_name: who.name,
    candidate_email: candidate.email,
    template_id: template?.id ?? null,
    template_name: template?.name ?? null,
    status: 'pending',
    outcome: null,
    notes: notes ?? null,
    expires_at: addSeconds(now, expiry_days * 86_400).toISOString(),
    requested_by: await clientNumber(deps, clientId),
    submission_token: plans.some((p) => p.actor.mode === 'candidate_upload') ? newLinkToken() : null,
    details,
    public_base: base,
    version: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const invite = invites?.(client, request, { first_name: candidate.first_name, last_name: candidate.last_name, email: candidate.email });
  const { items, parts } = await newGroupItems(deps, kind, request, plans, client.name, true, invite);
  const submission = request.submission_token
    ? [requestLinkPart(deps, request.submission_token, { client_id: clientId, kind: decl.kind, request_id: id, actor: 'candidate_upload' })]
    : [];
  await transact(deps, [newRequestPart(deps, kind, request), ...parts, ...submission, requestEvent(deps, kind, 'created', request, items)]);
  return toGroupView(decl, groupLinks, request, items, now);
}

/** Where a third party's address sits in the create body, for a refusal. */
function thirdPartyPointer(decl: GroupDeclaration, details: Record<string, unknown>, index: number): string {
  if (decl.kind === 'training_verification') return `/certificates/${index}/issuer_contact_email`;
  if (decl.kind === 'occupational_health' && details.oh_provider) return '/oh_provider/email';
  return '';
}
