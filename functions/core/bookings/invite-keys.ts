import { clientKeys } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { part, updateItem, type Condition, type Part } from '../platform/transact.js';

/**
 * Where booking invites are stored, and the one write a request makes on
 * its items' invites: closing them. Apart from the invite engine
 * (practical-training/invites.ts), so that closing a request does not load how invites are
 * planned, mailed and shown.
 */

const CLIENT = TABLE_KEYS.client;
const TOKEN = TABLE_KEYS.inviteToken;

/** Family-scoped: the life-support family's invites live beside these (decision 11). */
export const inviteKeys = {
  invite: (clientId: string, family: FamilyId, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.bookingInvite, family, padId(id)) }),
  prefix: (family: FamilyId) => familyPrefix(CLIENT.sk.bookingInvite, family),
  token: (family: FamilyId, tokenHash: string) => ({ pk: key(TOKEN.pk, family, tokenHash), sk: TOKEN.sk.token }),
};

/** *inviteOpen*: not used yet (queued, sent or opened); practical-training/invites.ts's `inviteUsable` adds the clock. */
export const inviteOpen: Condition = {
  expression: '#status IN (:queued, :sent, :opened)',
  names: { '#status': 'status' },
  values: { ':queued': 'queued', ':sent': 'sent', ':opened': 'opened' },
};

/**
 * Closes an unused invite now (its request was cancelled or expired): its
 * link answers "expired" from here on. Used meanwhile, the part fails and the
 * caller reads again (the booking changed the request too).
 */
export const closeInvitePart = (deps: Deps, clientId: string, inviteId: number, family: FamilyId): Part => {
  const now = deps.clock().toISOString();
  return part(`invite ${inviteId}`, updateItem(deps, inviteKeys.invite(clientId, family, inviteId), { set: { expires_at: now, updated_at: now } }, inviteOpen));
};
