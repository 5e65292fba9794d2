import type { Deps } from '../platform/deps.js';
import type { GroupRequestView } from '../requests/group-kind.js';
import { bookingInvites, type InviteLinks } from './booking-invites.js';
import type { NewGroupRequest } from './group-engine.js';
import { createRequestOfKind } from './request-create.js';
import { kindOf } from './request-groups.js';

/**
 * POST /{group}: a request of the group the path segment names, any of them;
 * a booking kind's invites link to its course family's pages (`inviteLinks`).
 * A function for one fixed group calls createRequestOfKind with that group's
 * kind instead, and carries neither the other groups nor the invite engines.
 */
export function createGroupRequest(
  deps: Deps,
  clientId: string,
  segment: string,
  input: NewGroupRequest,
  base: string,
  inviteLinks?: InviteLinks,
): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  return createRequestOfKind(deps, clientId, kind, input, base, (client, request, candidate) =>
    bookingInvites(deps, kind, client, request, candidate, inviteLinks),
  );
}
