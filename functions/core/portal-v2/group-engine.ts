import { randomUUID } from 'node:crypto';
import { linkTo } from '../../api/routes/operation.js';
import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import type { ClientAccount } from '../access/clients.js';
import { emailPut } from '../events/outbox.js';
import { requestInvitation, requestReminder } from '../messaging/email-templates.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { part, type Part } from '../platform/transact.js';
import type { GroupDeclaration, GroupItem, GroupRequest, ItemPlan } from '../requests/group.js';
import { groupEngineKind, type GroupEngineKind, type GroupLinks } from '../requests/group-kind.js';
import { newLinkToken } from '../requests/links.js';
import { newItemParts } from '../requests/store.js';
import type { PlannedInvite } from './booking-invites.js';
import { requestLinkPart, type RequestLinkTarget } from './request-links.js';

/**
 * A request group on the request engine, from its declaration alone: its
 * engine kind, its pages' links, and its new items. Apart from the registry
 * of every group (request-groups.ts), so that a function for one fixed group
 * (portal v1's creates) carries that group's declaration and no other.
 */

export const groupLinks: GroupLinks = {
  submission: (base, token) => linkTo(base, requestGroups.showRequestSubmission, { token }),
  form: (base, token) => linkTo(base, requestGroups.showRequestForm, { token }),
};

/** The page an item's actor answers on: the candidate's, or a third party's form. */
export const actorUrl = (request: GroupRequest, item: GroupItem): string =>
  item.actor.mode === 'candidate_upload'
    ? groupLinks.submission(request.public_base, request.submission_token!)
    : groupLinks.form(request.public_base, item.form_token!);

const reminderEmail =
  (decl: GroupDeclaration) =>
  ({ request, item, agency }: { request: GroupRequest; item: GroupItem; agency: string }) => ({
    to: item.actor.email,
    ...requestReminder({
      name: item.actor.name,
      agency,
      what: decl.title.replace(/ request$/, ''),
      url: actorUrl(request, item),
      expiresAt: request.expires_at,
    }),
  });

/**
 * The engine kind of a group answered on the portal's pages (every group
 * but the booking kinds, whose items are answered on their course family's
 * invite page: request-groups.ts builds those). One per declaration, so the
 * registry and a fixed group's function share it.
 */
const BUILT = new Map<GroupDeclaration, GroupEngineKind>();
export function groupKindOf(decl: GroupDeclaration): GroupEngineKind {
  if (decl.bookingFamily) throw new Error(`${decl.kind} is a booking kind: its engine kind is the registry's`);
  let kind = BUILT.get(decl);
  if (!kind) {
    kind = groupEngineKind(decl, groupLinks, reminderEmail(decl));
    kind.reminderTarget = reminderTarget;
    BUILT.set(decl, kind);
  }
  return kind;
}

/** The candidate's uploads share one page and one reminder; each third party has their own form. */
export const reminderTarget = (item: GroupItem): string => actorKeyOf(item.actor);

/** Who an actor is: the candidate, or a third party by mode and address. */
export const actorKeyOf = (actor: { mode: string; email: string }): string =>
  candidateActs(actor.mode) ? 'candidate' : `${actor.mode} ${actor.email.toLowerCase()}`;

/** The candidate answers the item themselves: uploads, or books through an invite. */
export const candidateActs = (mode: string): boolean => mode === 'candidate_upload' || mode === 'booking_invite';

export const SELF_ADDRESS_MESSAGE = "This must be someone other than the candidate: this is the candidate's own e-mail address";

export interface NewGroupRequest {
  candidate_id: number;
  template_id?: number;
  expiry_days: number;
  notes?: string;
  [field: string]: unknown;
}

/** The account includes the kind (section 1: entitlement, 403 without). */
export function requireEntitlement(client: ClientAccount, decl: GroupDeclaration): void {
  if (decl.entitlement && !(client.entitlements ?? []).includes(decl.entitlement)) {
    throw new DomainError('forbidden', `This account does not include ${decl.title.toLowerCase()}s`);
  }
}

/**
 * New items of a request: each with its form link (third parties) and its
 * invitation, or (a booking kind) its booking invite, all parts of one
 * transaction.
 */
export async function newGroupItems(
  deps: Deps,
  kind: GroupEngineKind,
  request: GroupRequest,
  plans: ItemPlan[],
  agency: string,
  mailCandidate: boolean,
  invite?: (item: Pick<GroupItem, 'id'>) => Promise<PlannedInvite>,
) {
  const decl = kind.declaration;
  const at = deps.clock().toISOString();
  const items: GroupItem[] = [];
  const parts: Part[] = [];
  // A third party answers all their items on one form: one link and one e-mail per actor.
  const tokens = new Map<string, string>();
  for (const plan of plans) {
    const id = await nextId(deps, kind.family, kind.counters.item);
    const booking = plan.actor.mode === 'booking_invite';
    if (booking && !invite) throw new Error(`${decl.kind} items need their booking invite planned`);
    const planned = booking ? await invite!({ id }) : undefined;
    const third = !candidateActs(plan.actor.mode);
    const actorKey = actorKeyOf(plan.actor);
    const known = tokens.get(actorKey);
    const token = third ? (known ?? newLinkToken()) : null;
    if (token) tokens.set(actorKey, token);
    const item: GroupItem = {
      id,
      uuid: randomUUID(),
      client_id: request.client_id,
      request_id: request.id,
      kind: decl.kind,
      type: plan.type,
      status: third || booking ? 'sent' : 'requested',
      actor: plan.actor,
      data: plan.data ?? null,
      file: null,
      form_token: token,
      booking_invite_id: planned?.id ?? null,
      booking_id: null,
      valid_until: null,
      rejection_reason: null,
      sent_at: at,
      opened_at: null,
      submitted_at: null,
      reviewed_at: null,
      reviewed_by: null,
      expires_at: request.expires_at,
      reminder_count: 0,
      last_reminder_sent_at: null,
      created_at: at,
      updated_at: at,
    };
    items.push(item);
    parts.push(...newItemParts(deps, kind, request, item), ...(planned?.parts ?? []));
    if (token && !known) {
      const target: RequestLinkTarget = {
        client_id: request.client_id,
        kind: decl.kind,
        request_id: request.id,
        actor: plan.actor.mode,
        email: plan.actor.email,
      };
      const what = plan.actor.mode === 'provider_form' ? decl.title.replace(/ request$/, '') : decl.itemType(plan.type).label;
      parts.push(
        requestLinkPart(deps, token, target, `link ${id}`),
        part(
          `email ${id}`,
          emailPut(deps, {
            to: plan.actor.email,
            ...requestInvitation({
              name: plan.actor.name,
              agency,
              what,
              candidateName: request.candidate_name,
              url: actorUrl(request, item),
              expiresAt: request.expires_at,
              third: true,
            }),
          }),
        ),
      );
    }
  }
  const candidateItems = items.filter((i) => i.actor.mode === 'candidate_upload');
  if (mailCandidate && candidateItems.length > 0) {
    const what = decl.title.replace(/ request$/, '');
    parts.push(
      part(
        'candidate email',
        emailPut(deps, {
          to: request.candidate_email,
          ...requestInvitation({
            name: request.candidate_name,
            agency,
            what,
            candidateName: request.candidate_name,
            url: actorUrl(request, candidateItems[0]!),
            expiresAt: request.expires_at,
            third: false,
          }),
        }),
      ),
    );
  }
  return { items, parts };
}
