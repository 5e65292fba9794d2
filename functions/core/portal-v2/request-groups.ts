import { checkActingUser } from '../access/team.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { Page } from '../platform/pagination.js';
import { toGroupView, type GroupEngineKind, type GroupRequestView } from '../requests/group-kind.js';
import { cancelRequest } from '../requests/lifecycle.js';
import { sendReminders } from '../requests/reminders.js';
import { listRequests, requireRequest, type RequestFilter } from '../requests/store.js';
import { bookingEngineKind } from './booking-kinds.js';
import { closeInvitePart } from '../bookings/invite-keys.js';
import { inviteHoldsReleaseParts } from '../inventory/hold-records.js';
import { GROUP_DECLARATIONS, declarationBySegment } from './groups/index.js';
import { fileDownloadUrl } from './request-files.js';
import { groupKindOf, groupLinks, reminderTarget } from './group-engine.js';

/**
 * Portal v2 request groups (training, occupational health, appraisal,
 * certificate, training verification) as an agency sees and changes them,
 * on the request engine. References keep their own module: their fields are
 * the specification's, byte for byte.
 */

export const GROUP_KINDS: Record<string, GroupEngineKind> = Object.fromEntries(
  GROUP_DECLARATIONS.map((decl) => {
    const family = decl.bookingFamily;
    if (!family) return [decl.kind, groupKindOf(decl)];
    const kind = bookingEngineKind(decl);
    kind.reminderTarget = reminderTarget;
    // Closing the request closes its unused invites, and gives back a seat one holds; a booking made stays (rule 7).
    kind.closeParts = async (deps, request, outstanding) => {
      const invites = outstanding.filter((i) => i.booking_invite_id && (i.status === 'sent' || i.status === 'opened')).map((i) => i.booking_invite_id!);
      return [
        ...invites.map((id) => closeInvitePart(deps, request.client_id, id, family)),
        ...(await inviteHoldsReleaseParts(deps, family, request.client_id, invites)),
      ];
    };
    return [decl.kind, kind];
  }),
);

/** The engine kind a path segment names; a segment of no group names nothing (404). */
export function kindOf(segment: string): GroupEngineKind {
  const decl = declarationBySegment(segment);
  if (!decl) throw new DomainError('not-found', `No request group ${segment}`);
  return GROUP_KINDS[decl.kind]!;
}

export async function getGroupRequest(deps: Deps, clientId: string, segment: string, id: number): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  return toGroupView(kind.declaration, groupLinks, request, items, deps.clock());
}

/** Lists show outcomes and dates; a health kind's item data and files stay out. */
export const listGroupRequests = (deps: Deps, clientId: string, segment: string, filter: RequestFilter): Promise<Page<GroupRequestView>> =>
  listRequests(deps, kindOf(segment), clientId, filter);

export async function cancelGroupRequest(deps: Deps, clientId: string, segment: string, id: number): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  // A completed request is closed too; references keep their own rule.
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

/** One of the caller's requests; another client's (or none) is 404. */
export const requireGroupRequest = (deps: Deps, clientId: string, segment: string, id: number) => requireRequest(deps, kindOf(segment), clientId, id);

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
 * health kind's request: the whole view to the account
 * and to an acting user with `health:read`, a logged read; to anyone else
 * acting, outcomes and dates only, as lists show. Other kinds: as it is.
 */
export async function shownAfterChange(
  deps: Deps,
  log: { info: (message: string, fields: Record<string, unknown>) => void },
  clientId: string,
  segment: string,
  view: GroupRequestView,
  what: string,
  actingUser: string | undefined,
): Promise<GroupRequestView> {
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
 * A read of one request's data, an item's file or the PDF: a health kind's, with `Acting-User`, needs `health:read`, checked
 * once the path has been found, and is logged: who (client, acting user),
 * what (kind, request, operation) and when; never the data. Another kind's
 * reads need no permission, only an active acting user.
 */
export async function checkGroupRead(
  deps: Deps,
  log: { info: (message: string, fields: Record<string, unknown>) => void },
  clientId: string,
  segment: string,
  id: number,
  what: string,
  actingUser: string | undefined,
): Promise<void> {
  const { declaration } = kindOf(segment);
  // Another kind's read needs no permission, but whoever acts must be an active team user (rule 2).
  if (!declaration.special_category) return void (await checkActingUser(deps, clientId, actingUser, null));
  logGroupRead(log, clientId, segment, id, what, await checkActingUser(deps, clientId, actingUser, 'health:read'));
}

/**
 * The log of a read whose acting user the edge has already checked against
 * the route's rule (portal v2's reads: `health:read` for a health kind): a
 * health kind's read is logged, who, what and when, never the data.
 */
export function logGroupRead(
  log: { info: (message: string, fields: Record<string, unknown>) => void },
  clientId: string,
  segment: string,
  id: number,
  what: string,
  acting: { id: number } | null,
): void {
  const { declaration } = kindOf(segment);
  if (declaration.special_category)
    log.info('health data read', { client_id: clientId, group_request_id: id, kind: declaration.kind, what, acting_user: acting?.id ?? null });
}
