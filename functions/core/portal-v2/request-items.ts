import { getClient } from '../access/clients.js';
import { emailPut } from '../events/outbox.js';
import { requestItemRejected } from '../messaging/email-templates.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part, transact } from '../platform/transact.js';
import type { GroupItem, GroupRequest, ItemStatus } from '../requests/group.js';
import { toGroupView, type GroupEngineKind, type GroupRequestView } from '../requests/group-kind.js';
import { isOpen } from '../requests/status.js';
import { requireOpen, requireRequest, type Loaded } from '../requests/store.js';
import { itemChangeParts, type ItemChange } from './item-changes.js';
import { actorUrl, groupLinks, newGroupItems } from './group-engine.js';
import { kindOf } from './request-groups.js';

export type { ItemChange };

/**
 * An item's changes: submitted by its actor, accepted or rejected by the
 * agency, confirmed or denied by a third party. Each is one transaction
 * under the request's version and the item's status: the
 * request's status is derived again from its items, and the change that
 * makes the last item final completes the request in the same transaction.
 * Of two concurrent changes to one item, one wins; the other reads the new
 * state and is refused.
 */

/**
 * Changes one item of an open request, if it is in one of `from`; else
 * 409 invalid-state with `refusal`. Returns the request after the change.
 */
export async function changeItem(
  deps: Deps,
  kind: GroupEngineKind,
  loaded: () => Promise<Loaded<GroupRequest, GroupItem>>,
  itemId: number,
  from: readonly ItemStatus[],
  decide: (request: GroupRequest, item: GroupItem, items: GroupItem[]) => ItemChange,
): Promise<{ request: GroupRequest; items: GroupItem[] }> {
  return retryOnConflict(async () => {
    const { request, items } = await loaded();
    requireOpen(kind, request, deps.clock());
    if (!isOpen(request.status)) throw new DomainError('invalid-state', kind.texts.closed(request.id, request.status));
    const item = items.find((i) => i.id === itemId);
    if (!item) throw new DomainError('not-found', kind.texts.noItem(itemId));
    if (!from.includes(item.status)) throw new DomainError('invalid-state', `Item ${itemId} is ${item.status}, not ${from.join(' or ')}`);
    const {
      parts,
      request: after,
      items: itemsAfter,
    } = await itemChangeParts(deps, kind, { request, items }, item, decide(request, item, items), newGroupItems);
    await transact(deps, parts);
    return { request: after, items: itemsAfter };
  });
}

/** The agency accepts or rejects a submitted item; a rejected actor is e-mailed the reason and the same link. */
export async function reviewItem(
  deps: Deps,
  clientId: string,
  segment: string,
  id: number,
  itemId: number,
  verdict: { accept: true } | { accept: false; reason: string },
  reviewer: number | null,
): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  const decl = kind.declaration;
  if (!decl.reviewed) throw new DomainError('invalid-state', `${decl.title}s are not reviewed: their items are answered by a third party`);
  const client = await getClient(deps, clientId);
  const at = deps.clock().toISOString();
  const { request, items } = await changeItem(
    deps,
    kind,
    () => requireRequest(deps, kind, clientId, id),
    itemId,
    ['submitted'],
    (_request, item) =>
      verdict.accept
        ? { set: { status: 'accepted', rejection_reason: null, reviewed_at: at, reviewed_by: reviewer }, event: 'accepted' }
        : {
            set: { status: 'rejected', rejection_reason: verdict.reason, reviewed_at: at, reviewed_by: reviewer },
            event: 'rejected',
            parts: (r, i) => [
              part(
                'rejection email',
                emailPut(deps, {
                  to: i.actor.email,
                  // Health data stays out of e-mails: the reason may speak of it, so the page shows it instead.
                  ...requestItemRejected({
                    name: i.actor.name,
                    agency: client?.name ?? '',
                    item: decl.itemType(item.type).label,
                    reason: decl.special_category ? 'The reason is shown on the page.' : verdict.reason,
                    url: actorUrl(r, i),
                  }),
                }),
              ),
            ],
          },
  );
  return toGroupView(decl, groupLinks, request, items, deps.clock());
}
