import type { Deps } from '../platform/deps.js';
import { part, transact, TransactionFailed, updateItem, type Condition } from '../platform/transact.js';
import { changeInvite, inviteEventPart, inviteKeys, inviteOfToken, inviteStatus, type InviteItem } from './invites.js';

/**
 * What the candidate's invite page does to the invite (design
 * practical-training section 7). Opening it only counts; a GET never uses it.
 */

/** Why the page cannot be used, if it cannot: the invite was used, or is past `expires_at`. */
export const inviteGone = (invite: InviteItem, now: Date): 'used' | 'expired' | undefined => {
  const status = inviteStatus(invite, now);
  return status === 'used' || status === 'expired' ? status : undefined;
};

/** *firstOpen*: nobody opened it before, and it can still be used. */
const firstOpen = (now: Date): Condition => ({
  expression: 'attribute_not_exists(opened_at) AND #status IN (:queued, :sent) AND expires_at > :now',
  names: { '#status': 'status' },
  values: { ':queued': 'queued', ':sent': 'sent', ':now': now.toISOString() },
});

/**
 * GET /invite/{t}: the invite behind the link. `count` (a GET, not a HEAD)
 * adds one to `open_count`; the first opening of a usable invite also sets
 * `opened_at`, the status `opened` and writes `booking_invite.opened`, once.
 */
export async function openInvite(deps: Deps, token: string, count: boolean): Promise<InviteItem> {
  const invite = await inviteOfToken(deps, token);
  const now = deps.clock();
  if (!count || inviteGone(invite, now)) return invite;
  if (!invite.opened_at) {
    try {
      return await changeInvite(
        deps,
        invite,
        { status: 'opened', opened_at: now.toISOString(), open_count: invite.open_count + 1 },
        async (u) => [await inviteEventPart(deps, 'booking_invite.opened', u)],
        firstOpen(now),
      );
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('invite'))) throw err; // opened (or changed) meanwhile: just count
    }
  }
  await transact(deps, [part('invite', updateItem(deps, inviteKeys.invite(invite.client_id, invite.id), { add: { open_count: 1 } }))]);
  return { ...invite, open_count: invite.open_count + 1 };
}
