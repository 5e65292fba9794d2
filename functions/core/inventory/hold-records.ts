import { clientKeys } from '../access/clients.js';
import { getMany, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { deleteItem, part, updateItem, type Condition, type Part } from '../platform/transact.js';
import type { HoldPolicy } from './holds.js';
import { freeUnit } from './units.js';

/**
 * A hold as stored, and the writes that end one: apart from taking holds
 * (./holds.ts), so that closing a request, which gives back the seats its
 * invites hold, does not load how holds are taken.
 */

export type HoldStatus = 'active' | 'released' | 'used' | 'expired';

/**
 * Whose hold it is: the agency itself (API), or one of its invites, whose
 * holds never block the agency's (decision 4) and last no longer than the
 * invite (`until`: its expiry).
 */
export type Holder = { type: 'client'; clientId: string } | { type: 'invite'; clientId: string; inviteId: number; until?: string };

/** What every hold carries; a family adds what its unit is (clinical: the interviewer's slot). */
export interface Hold {
  hold_hash: string;
  client_id: string;
  family: FamilyId;
  invite_id?: number;
  expires_at: string;
  status: HoldStatus;
  /** The key of the lock it holds (moved with it), so that it can be freed without the family's help; older holds have none. */
  unit_key?: ItemKey;
  /** An invite's hold: the place of its client's invites it takes in the event or session (holdRecordKeys.invitePlace). */
  invite_place?: ItemKey;
  booking_id?: number;
  [field: string]: unknown;
}

const CLIENT = TABLE_KEYS.client;
const HOLD = TABLE_KEYS.hold;
const OPEN = GSI1_KEYS.openHolds;
/** Where holds and holders' markers are stored (holds.ts adds the clinical family's unit). */
export const holdRecordKeys = {
  hold: (family: FamilyId, hash: string) => ({ pk: key(HOLD.pk, family, hash), sk: HOLD.sk.hold }),
  activeHold: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.activeHold, family) }),
  /** An invite's marker sits apart from its agency's, so the two never block each other. */
  inviteHold: (clientId: string, family: FamilyId, inviteId: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.inviteHold, family, padId(inviteId)),
  }),
  /**
   * One of the places through which a client's invites hold seats of one
   * event or session (`scope`) at once (`P1`…`P<cap>`), a unit lock each:
   * held with the hold, freed when it is released or used, free by the
   * clock when it expires.
   */
  invitePlace: (clientId: string, family: FamilyId, scope: string, name: string) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.invitePlace, family, scope, name),
  }),
  /** The sweep's sparse index: a family's active holds by expiry, only where the family announces expiry. */
  open: (family: FamilyId, expiresAt: string, hash: string) => ({ gsi1pk: key(OPEN.pk, family), gsi1sk: key(OPEN.sk.hold, expiresAt, hash) }),
  openPartition: (family: FamilyId) => key(OPEN.pk, family),
};

export const markerKey = (family: FamilyId, holder: Holder) =>
  holder.type === 'client' ? holdRecordKeys.activeHold(holder.clientId, family) : holdRecordKeys.inviteHold(holder.clientId, family, holder.inviteId);

/** *markerFree*: the holder has no hold in force. */
export const markerFree = (now: Date): Condition => ({ expression: 'attribute_not_exists(pk) OR expires_at <= :now', values: { ':now': now.toISOString() } });

/** *holdUsable*: this holder's hold, active and unexpired. */
export const holdUsable = (holder: Holder, now: Date): Condition => ({
  expression: `client_id = :client AND #status = :active AND expires_at > :now AND ${holder.type === 'invite' ? 'invite_id = :invite' : 'attribute_not_exists(invite_id)'}`,
  names: { '#status': 'status' },
  values: { ':client': holder.clientId, ':active': 'active', ':now': now.toISOString(), ...(holder.type === 'invite' ? { ':invite': holder.inviteId } : {}) },
});

/** The same rule on a hold as read: what booking with it would meet. Another holder's hold does not exist for this one. */
export function holdState(hold: Hold | undefined, holder: Holder, now: Date): 'usable' | 'not-found' | 'used' | 'expired' {
  const holderMatches = !!hold && hold.client_id === holder.clientId && hold.invite_id === (holder.type === 'invite' ? holder.inviteId : undefined);
  if (!hold || !holderMatches || hold.status === 'released') return 'not-found';
  if (hold.status === 'used') return 'used';
  return hold.status === 'expired' || hold.expires_at <= now.toISOString() ? 'expired' : 'usable';
}

export const markerOf = (hash: string, orAbsent = false): Condition => ({
  expression: `${orAbsent ? 'attribute_not_exists(pk) OR ' : ''}hold_hash = :hash`,
  values: { ':hash': hash },
});
/** A hold leaving `active` leaves the sweep's index too. */
export const leaving = (status: HoldStatus, extra: Record<string, unknown>) => ({ set: { status, ...extra, gsi1pk: undefined, gsi1sk: undefined } });

/** Who holds a hold, as its record says. */
export const holderOf = (hold: Hold): Holder =>
  hold.invite_id === undefined ? { type: 'client', clientId: hold.client_id } : { type: 'invite', clientId: hold.client_id, inviteId: hold.invite_id };

/**
 * *release*: the hold `released`, its unit free, the holder's marker gone; each only while it is still this hold's
 * (judged at `now`, the instant the caller read it by). `suffix` names the parts apart when a transaction ends several.
 */
export function releaseParts(
  deps: Deps,
  policy: Pick<HoldPolicy, 'family' | 'onePerHolder'>,
  holder: Holder,
  hold: Hold,
  unit: ItemKey,
  now: Date,
  suffix = '',
): Part[] {
  return [
    part(
      `hold${suffix}`,
      updateItem(deps, holdRecordKeys.hold(policy.family, hold.hold_hash), leaving('released', { released_at: now.toISOString() }), holdUsable(holder, now)),
    ),
    freeUnit(deps, unit, { holdHash: hold.hold_hash }, `unit${suffix}`),
    ...(policy.onePerHolder ? [part(`marker${suffix}`, deleteItem(deps, markerKey(policy.family, holder), markerOf(hold.hold_hash)))] : []),
    ...invitePlaceFreed(deps, hold, suffix),
  ];
}

/** The part that gives back an invite's hold's place, while it is still this hold's (after expiry another may hold it). */
export const invitePlaceFreed = (deps: Deps, hold: Pick<Hold, 'hold_hash' | 'invite_place'>, suffix = ''): Part[] =>
  hold.invite_place
    ? [
        part(
          `invite place${suffix}`,
          deleteItem(deps, hold.invite_place, { expression: 'attribute_not_exists(pk) OR hold_hash = :hash', values: { ':hash': hold.hold_hash } }),
        ),
      ]
    : [];

/**
 * The parts that give back the holds these invites hold in the family (their
 * request closed, so they can no longer book): read from the invites'
 * markers. A hold from before holds recorded their unit is left to expire.
 */
export async function inviteHoldsReleaseParts(deps: Deps, family: FamilyId, clientId: string, inviteIds: number[]): Promise<Part[]> {
  if (!inviteIds.length) return [];
  const now = deps.clock();
  const markers = (await getMany(
    deps,
    inviteIds.map((id) => holdRecordKeys.inviteHold(clientId, family, id)),
  )) as unknown as Hold[];
  return markers
    .filter((m) => m.expires_at > now.toISOString() && m.invite_id !== undefined && m.unit_key)
    .flatMap((m) => releaseParts(deps, { family, onePerHolder: true }, holderOf(m), m, m.unit_key!, now, ` of invite ${m.invite_id}`));
}
