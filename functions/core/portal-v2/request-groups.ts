import { randomUUID } from 'node:crypto';
import { linkTo } from '../../api/routes/operation.js';
import * as portalV2 from '../../api/routes/portal-v2.js';
import type { ClientAccount } from '../access/clients.js';
import { checkActingUser } from '../access/team.js';
import { emailPut } from '../events/outbox.js';
import { requestInvitation, requestReminder } from '../messaging/email-templates.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import type { Page } from '../platform/pagination.js';
import { part, type Part } from '../platform/transact.js';
import type { GroupDeclaration, GroupItem, GroupRequest, ItemPlan } from '../requests/group.js';
import { groupEngineKind, toGroupView, type GroupEngineKind, type GroupLinks, type GroupRequestView } from '../requests/group-kind.js';
import { cancelRequest } from '../requests/lifecycle.js';
import { newLinkToken } from '../requests/links.js';
import { sendReminders } from '../requests/reminders.js';
import { listRequests, newItemParts, requireRequest, type RequestFilter } from '../requests/store.js';
import { bookingEngineKind } from './booking-kinds.js';
import { closeInvitePart } from '../practical-training/invite-keys.js';
import { inviteHoldsReleaseParts } from '../inventory/hold-records.js';
import type { PlannedInvite } from './booking-invites.js';
import { GROUP_DECLARATIONS, declarationBySegment } from './groups/index.js';
import { requestLinkPart, type RequestLinkTarget } from './request-links.js';
import { fileDownloadUrl } from './request-files.js';

/**
 * Portal v2 request groups (training, occupational health, appraisal,
 * certificate, training verification) as an agency sees and changes them,
 * on the request engine. References keep their own module: their fields are
 * the specification's, byte for byte.
 */

export const groupLinks: GroupLinks = {
  submission: (base, token) => linkTo(base, portalV2.showRequestSubmission, { token }),
  form: (base, token) => linkTo(base, portalV2.showRequestForm, { token }),
};

/** The page an item's actor answers on: the candidate's, or a third party's form. */
export const actorUrl = (request: GroupRequest, item: GroupItem): string =>
  item.actor.mode === 'candidate_upload'
    ? groupLinks.submission(request.public_base, request.submission_token!)
    : groupLinks.form(request.public_base, item.form_token!);

const reminderEmail = (decl: GroupDeclaration) => ({ request, item, agency }: { request: GroupRequest; item: GroupItem; agency: string }) => ({
  to: item.actor.email,
  ...requestReminder({ name: item.actor.name, agency, what: decl.title.replace(/ request$/, ''), url: actorUrl(request, item), expiresAt: request.expires_at }),
});

export const GROUP_KINDS: Record<string, GroupEngineKind> = Object.fromEntries(
  GROUP_DECLARATIONS.map((decl) => {
    const family = decl.bookingFamily;
    const kind = family ? bookingEngineKind(decl) : groupEngineKind(decl, groupLinks, reminderEmail(decl));
    // The candidate's uploads share one page and one reminder; each third party has their own form.
    kind.reminderTarget = (item) => actorKeyOf(item.actor);
    if (family) {
      // Closing the request closes its unused invites, and gives back a seat one holds; a booking made stays (rule 7).
      kind.closeParts = async (deps, request, outstanding) => {
        const invites = outstanding.filter((i) => i.booking_invite_id && (i.status === 'sent' || i.status === 'opened')).map((i) => i.booking_invite_id!);
        return [
          ...invites.map((id) => closeInvitePart(deps, request.client_id, id, family)),
          ...(await inviteHoldsReleaseParts(deps, family, request.client_id, invites)),
        ];
      };
    }
    return [decl.kind, kind];
  }),
);

/** The engine kind a path segment names; a segment of no group names nothing (404). */
export function kindOf(segment: string): GroupEngineKind {
  const decl = declarationBySegment(segment);
  if (!decl) throw new DomainError('not-found', `No request group ${segment}`);
  return GROUP_KINDS[decl.kind]!;
}

/** Who an actor is: the candidate, or a third party by mode and address. */
export const actorKeyOf = (actor: { mode: string; email: string }): string => (candidateActs(actor.mode) ? 'candidate' : `${actor.mode} ${actor.email.toLowerCase()}`);

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
export async function newGroupItems(deps: Deps, kind: GroupEngineKind, request: GroupRequest, plans: ItemPlan[], agency: string, mailCandidate: boolean, invite?: (item: Pick<GroupItem, 'id'>) => Promise<PlannedInvite>) {
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
      const target: RequestLinkTarget = { client_id: request.client_id, kind: decl.kind, request_id: request.id, actor: plan.actor.mode, email: plan.actor.email };
      const what = plan.actor.mode === 'provider_form' ? decl.title.replace(/ request$/, '') : decl.itemType(plan.type).label;
      parts.push(
        requestLinkPart(deps, token, target, `link ${id}`),
        part(`email ${id}`, emailPut(deps, { to: plan.actor.email, ...requestInvitation({ name: plan.actor.name, agency, what, candidateName: request.candidate_name, url: actorUrl(request, item), expiresAt: request.expires_at, third: true }) })),
      );
    }
  }
  const candidateItems = items.filter((i) => i.actor.mode === 'candidate_upload');
  if (mailCandidate && candidateItems.length > 0) {
    const what = decl.title.replace(/ request$/, '');
    parts.push(part('candidate email', emailPut(deps, { to: request.candidate_email, ...requestInvitation({ name: request.candidate_name, agency, what, candidateName: request.candidate_name, url: actorUrl(request, candidateItems[0]!), expiresAt: request.expires_at, third: false }) })));
  }
  return { items, parts };
}

export async function getGroupRequest(deps: Deps, clientId: string, segment: string, id: number): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  return toGroupView(kind.declaration, groupLinks, request, items, deps.clock());
}

/** Lists show outcomes and dates; a health kind's item data and files stay out (design 1.5 rule 3). */
export const listGroupRequests = (deps: Deps, clientId: string, segment: string, filter: RequestFilter): Promise<Page<GroupRequestView>> =>
  listRequests(deps, kindOf(segment), clientId, filter);

export async function cancelGroupRequest(deps: Deps, clientId: string, segment: string, id: number): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  // A completed request is closed too (design 1.3 rule 7); references keep their own rule.
  const { request } = await requireRequest(deps, kind, clientId, id);
  if (request.status === 'completed') throw new DomainError('invalid-state', kind.texts.closed(id, 'completed'));
  await cancelRequest(deps, kind, clientId, id);
  return getGroupRequest(deps, clientId, segment, id);
}

/** Reminds whoever owes the next step, once per actor per 24 hours. */
export async function remindGroupRequest(deps: Deps, clientId: string, segment: string, id: number) {
  const kind = kindOf(segment);
  const { reminders_sent } = await sendReminders(deps, kind, clientId, id);
  return { request: await getGroupRequest(deps, clientId, segment, id), reminders_sent };
}

export type { RequestFilter };

/** One of the caller's requests and its item; another client's (or no such item) is 404. */
export async function requireGroupItem(deps: Deps, clientId: string, segment: string, id: number, itemId: number) {
  const kind = kindOf(segment);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  const item = items.find((i) => i.id === itemId);
  if (!item) throw new DomainError('not-found', kind.texts.noItem(itemId));
  return { kind, request, item };
}

/** A 300-second link to an item's file; 404 while it has none (or after the purge). */
export async function groupItemFileUrl(deps: Deps, clientId: string, segment: string, id: number, itemId: number): Promise<string> {
  const { item } = await requireGroupItem(deps, clientId, segment, id, itemId);
  if (!item.file || item.file.purged_at) throw new DomainError('not-found', `Item ${itemId} has no file`);
  return fileDownloadUrl(item.file);
}

/**
 * What a change's answer (accept, reject, cancel, reminders) shows of a
 * health kind's request (design 1.5 rule 2): the whole view to the account
 * and to an acting user with `health:read`, a logged read; to anyone else
 * acting, outcomes and dates only, as lists show. Other kinds: as it is.
 */
export async function shownAfterChange(deps: Deps, log: { info: (message: string, fields: Record<string, unknown>) => void }, clientId: string, segment: string, view: GroupRequestView, what: string, actingUser: string | undefined): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  if (!kind.declaration.special_category) return view;
  // The read's own check and log; refused, the answer shows outcomes instead.
  const reads = await checkGroupRead(deps, log, clientId, segment, view.id, what, actingUser).then(
    () => true,
    (err: unknown) => {
      if (err instanceof DomainError && err.code === 'acting-user-not-permitted') return false;
      throw err;
    },
  );
  if (reads) return view;
  const { request, items } = await requireRequest(deps, kind, clientId, view.id);
  return toGroupView(kind.declaration, groupLinks, request, items, deps.clock(), 'outcomes');
}

/**
 * A read of one request's data, an item's file or the PDF (design 1.5 rule
 * 2): a health kind's, with `Acting-User`, needs `health:read`, checked
 * once the path has been found, and is logged: who (client, acting user),
 * what (kind, request, operation) and when; never the data. Another kind's
 * reads need no permission, only an active acting user.
 */
export async function checkGroupRead(deps: Deps, log: { info: (message: string, fields: Record<string, unknown>) => void }, clientId: string, segment: string, id: number, what: string, actingUser: string | undefined): Promise<void> {
  const { declaration } = kindOf(segment);
  // Another kind's read needs no permission, but whoever acts must be an active team user (rule 2).
  if (!declaration.special_category) return void (await checkActingUser(deps, clientId, actingUser, null));
  const acting = await checkActingUser(deps, clientId, actingUser, 'health:read');
  log.info('health data read', { client_id: clientId, group_request_id: id, kind: declaration.kind, what, acting_user: acting?.id ?? null });
}
