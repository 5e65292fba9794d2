import { getClient } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { toGroupView, type GroupRequestView } from '../requests/group-kind.js';
import { requireOpen, requireRequest } from '../requests/store.js';
import type { InviteLinks } from './booking-invites.js';
import { getCandidateItem } from './candidates.js';
import { bookingInvites } from './booking-invites.js';
import { groupLinks } from './group-engine.js';
import { kindOf, requireGroupItem } from './request-groups.js';
import { changeItem } from './request-items.js';

/**
 * POST /<g>/{id}/items/{item_id}/reissue: a failed item of a booking kind
 * gets a new invite (and its e-mail) and is `sent` again. Under the request's
 * version and the item's status: of concurrent reissues one writes its
 * invite, the others find the item sent (409).
 */
export async function reissueItem(deps: Deps, clientId: string, segment: string, id: number, itemId: number, links: InviteLinks): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  const decl = kind.declaration;
  const { request, item } = await requireGroupItem(deps, clientId, segment, id, itemId);
  if (!decl.bookingFamily) throw new DomainError('invalid-state', `${decl.title}s have no booking invites to reissue`);
  requireOpen(kind, request, deps.clock());
  if (item.status !== 'failed') throw new DomainError('invalid-state', `Item ${itemId} is ${item.status}: only a failed booking's invite is reissued`);
  const [client, candidate] = await Promise.all([getClient(deps, clientId), getCandidateItem(deps, clientId, request.candidate_id)]);
  if (!client || !candidate) throw new DomainError('not-found', `No candidate ${request.candidate_id}`);
  const invite = await bookingInvites(deps, kind, client, request, candidate, links)!({ id: itemId });
  const at = deps.clock().toISOString();
  const after = await changeItem(
    deps,
    kind,
    () => requireRequest(deps, kind, clientId, id),
    itemId,
    ['failed'],
    () => ({
      set: { status: 'sent', booking_invite_id: invite.id, booking_id: null, data: null, valid_until: null, sent_at: at, opened_at: null },
      parts: () => invite.parts,
    }),
  );
  return toGroupView(decl, groupLinks, after.request, after.items, deps.clock());
}
