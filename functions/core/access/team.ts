import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, getClient } from './clients.js';
import { queryAll, queryPages, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import {
  checkItem,
  deleteItem,
  failuresAmong,
  itemAbsent,
  itemExists,
  part,
  putItem,
  transact,
  TransactionFailed,
  updateItem,
  type Condition,
  type Failure,
  type Part,
} from '../platform/transact.js';
import { BUILT_IN_ROLES, isBuiltIn, type AlertMinSeverity, type Permission } from './roles.js';

/**
 * The account's team (decision 10): roles (./team-roles.ts), users and the `Acting-User`
 * check, for every family of the client (registration monitoring's team
 * routes, portal v2 reviews and health reads, the operator CLI). The team
 * record counts active owners; every write that removes, disables or demotes
 * one is conditioned on that count staying above zero in its own
 * transaction, so two concurrent requests cannot leave the account without
 * an owner. A custom role counts its users the same way, so a role in use is
 * never deleted.
 */

export interface TeamUserItem {
  id: number;
  client_id: string;
  name: string;
  email: string;
  role_id: string;
  status: 'active' | 'disabled';
  alert_min_severity: AlertMinSeverity;
  created_at: string;
  updated_at: string;
}

/** A custom role as stored; ./team-roles.ts reads and writes them, the `Acting-User` check reads their permissions. */
export interface RoleItem {
  id: string;
  client_id: string;
  name: string;
  permissions: Permission[];
  user_count: number;
  created_at: string;
  updated_at: string;
}

export interface TeamUserInput {
  name: string;
  email: string;
  role_id: string;
  status: 'active' | 'disabled';
  alert_min_severity: AlertMinSeverity;
}

/** Who the `Acting-User` header names, once checked. */
export interface Acting {
  id: number;
  role_id: string;
}

/**
 * The team was born in registration monitoring: its keys and id counters
 * keep that family's segment (and the team record its `MONITORING#` key),
 * so teams stored before it became the account's read on unchanged.
 */
export const TEAM_KEY_SPACE: FamilyId = 'registration-monitoring';
const CLIENT = TABLE_KEYS.client;
export const teamKeys = {
  /** The team record: the active owner count and the first owner. */
  team: (clientId: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.monitoring, TEAM_KEY_SPACE) }),
  user: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.teamUser, TEAM_KEY_SPACE, padId(id)) }),
  /** One team user per e-mail address in the account (moved with the user). */
  userEmail: (clientId: string, email: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.teamUserEmail, TEAM_KEY_SPACE, email) }),
  role: (clientId: string, id: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.teamRole, TEAM_KEY_SPACE, id) }),
};

export const readTeamItem = async <T>(deps: Deps, k: { pk: string; sk: string }) =>
  (await deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true }))).Item as T | undefined;
export const listTeamItems = async <T>(deps: Deps, clientId: string, prefix: string) =>
  (await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':p': prefix },
    ConsistentRead: true,
  })) as T[];

const tz = (deps: Deps) => deps.config.serviceTimeZone;
export const userView = (deps: Deps, u: TeamUserItem) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role_id: u.role_id,
  status: u.status,
  alert_min_severity: u.alert_min_severity,
  created_at: formatWithOffset(u.created_at, tz(deps)),
  updated_at: formatWithOffset(u.updated_at, tz(deps)),
});

export const listUsers = (deps: Deps, clientId: string) => listTeamItems<TeamUserItem>(deps, clientId, familyPrefix(CLIENT.sk.teamUser, TEAM_KEY_SPACE));

async function requireUser(deps: Deps, clientId: string, id: number): Promise<TeamUserItem> {
  const user = await readTeamItem<TeamUserItem>(deps, teamKeys.user(clientId, id));
  if (!user) throw new DomainError('not-found', `No team user ${id}`);
  return user;
}
export const getUser = async (deps: Deps, clientId: string, id: number) => userView(deps, await requireUser(deps, clientId, id));

/** A role's permissions: a built-in role's, a custom role's, or none (a role that no longer exists). */
async function permissionsOf(deps: Deps, clientId: string, roleId: string): Promise<readonly Permission[]> {
  if (isBuiltIn(roleId)) return BUILT_IN_ROLES[roleId].permissions;
  return (await readTeamItem<RoleItem>(deps, teamKeys.role(clientId, roleId)))?.permissions ?? [];
}

/**
 * The `Acting-User` header (section 6, rule 2): absent, the client acts; else
 * an active user of this client whose role holds `permission` (null: any
 * active user, for an operation that needs no permission). A malformed,
 * unknown or foreign id is refused like one without the permission.
 */
export async function checkActingUser(deps: Deps, clientId: string, header: string | undefined, permission: Permission | null): Promise<Acting | null> {
  if (header === undefined) return null;
  const refuse = () =>
    permission
      ? new DomainError('acting-user-not-permitted', `The acting user may not do this (${permission})`, { permission })
      : new DomainError('acting-user-not-permitted', 'The acting user is not an active team user of this account');
  if (!/^[1-9]\d{0,9}$/.test(header.trim())) throw refuse();
  const user = await readTeamItem<TeamUserItem>(deps, teamKeys.user(clientId, Number(header.trim())));
  if (!user || user.status !== 'active' || (permission && !(await permissionsOf(deps, clientId, user.role_id)).includes(permission))) throw refuse();
  return { id: user.id, role_id: user.role_id };
}

/**
 * The account's team with its first owner, in one transaction; a team that
 * exists is left as it is and its first owner answered (`created: false`).
 */
export async function createTeam(deps: Deps, clientId: string, owner: { name: string; email: string }): Promise<{ owner: TeamUserItem; created: boolean }> {
  if (!(await getClient(deps, clientId))) throw new DomainError('not-found', `No client ${clientId}`);
  const existing = await firstOwner(deps, clientId);
  if (existing) return { owner: existing, created: false };
  const now = deps.clock().toISOString();
  const id = await nextId(deps, TEAM_KEY_SPACE, 'team-user');
  const user: TeamUserItem = {
    id,
    client_id: clientId,
    name: owner.name,
    email: owner.email.toLowerCase(),
    role_id: 'owner',
    status: 'active',
    alert_min_severity: 'high',
    created_at: now,
    updated_at: now,
  };
  try {
    await transact(deps, [
      part(
        'team',
        putItem(deps, { ...teamKeys.team(clientId), entity: 'team', client_id: clientId, owner_count: 1, first_owner_id: id, enabled_at: now }, itemAbsent),
      ),
      part('owner', putItem(deps, { ...teamKeys.user(clientId, id), entity: 'team-user', ...user }, itemAbsent)),
      part('owner-email', putItem(deps, { ...teamKeys.userEmail(clientId, user.email), entity: 'team-user-email', user_id: id })),
    ]);
    return { owner: user, created: true };
  } catch (err) {
    // A concurrent create won: answer its owner.
    if (err instanceof TransactionFailed && err.has('team')) return { owner: (await firstOwner(deps, clientId))!, created: false };
    throw err;
  }
}

async function firstOwner(deps: Deps, clientId: string): Promise<TeamUserItem | undefined> {
  const team = await readTeamItem<{ first_owner_id: number }>(deps, teamKeys.team(clientId));
  return team && readTeamItem<TeamUserItem>(deps, teamKeys.user(clientId, Number(team.first_owner_id)));
}

/** Owners are changed by owners (or by the client itself, without `Acting-User`). */
function requireOwnerActing(acting: Acting | null) {
  if (acting && acting.role_id !== 'owner') throw new DomainError('owner-required', 'Only an owner may grant, change or remove an owner');
}

const activeOwner = (u: Pick<TeamUserInput, 'role_id' | 'status'> | undefined) => u?.role_id === 'owner' && u.status === 'active';
/** *ownersRemain*: another active owner is left after this one goes. */
const ownersRemain: Condition = { expression: 'owner_count > :one', values: { ':one': 1 } };

/** The counters a user's move from `before` to `after` changes: active owners on the account, users of custom roles. */
function countParts(deps: Deps, clientId: string, before: TeamUserInput | undefined, after: TeamUserInput | undefined): Part[] {
  const parts: Part[] = [];
  const owners = Number(activeOwner(after)) - Number(activeOwner(before));
  if (owners !== 0)
    parts.push(part('account', updateItem(deps, teamKeys.team(clientId), { add: { owner_count: owners } }, owners < 0 ? ownersRemain : itemExists)));
  if (before?.role_id !== after?.role_id) {
    if (before && !isBuiltIn(before.role_id))
      parts.push(part('old-role', updateItem(deps, teamKeys.role(clientId, before.role_id), { add: { user_count: -1 } })));
    if (after && !isBuiltIn(after.role_id))
      parts.push(part('role', updateItem(deps, teamKeys.role(clientId, after.role_id), { add: { user_count: 1 } }, itemExists)));
  }
  return parts;
}

/** The e-mail guard's move: one user per address in the account. */
function emailParts(deps: Deps, clientId: string, id: number, before: string | undefined, after: string | undefined): Part[] {
  if (before === after) return [];
  return [
    ...(before ? [part('old-email', deleteItem(deps, teamKeys.userEmail(clientId, before)))] : []),
    ...(after ? [part('email', putItem(deps, { ...teamKeys.userEmail(clientId, after), entity: 'team-user-email', user_id: id }, itemAbsent))] : []),
  ];
}

const USER_FAILURES = {
  account: (team) =>
    team
      ? new DomainError('last-owner', "The account's last active owner cannot be removed, disabled or demoted: make another user an owner first")
      : new DomainError('invalid-state', 'The account has no team yet: the operator makes it with its first owner (npm run ops -- team create)'),
  email: new DomainError('team-user-duplicate', 'A team user has this e-mail address'),
  role: new DomainError('invalid-field', 'No such role', { pointer: '/role_id' }),
} satisfies Record<string, Failure>;

const writeUser = (deps: Deps, parts: Part[]) => transact(deps, parts, failuresAmong(USER_FAILURES, parts));

async function requireRole(deps: Deps, clientId: string, roleId: string) {
  if (!isBuiltIn(roleId) && !(await readTeamItem<RoleItem>(deps, teamKeys.role(clientId, roleId)))) throw USER_FAILURES.role;
}

export async function createUser(deps: Deps, clientId: string, input: TeamUserInput, acting: Acting | null) {
  if (input.role_id === 'owner') requireOwnerActing(acting);
  await requireRole(deps, clientId, input.role_id);
  const now = deps.clock().toISOString();
  const user: TeamUserItem = {
    id: await nextId(deps, TEAM_KEY_SPACE, 'team-user'),
    client_id: clientId,
    ...input,
    email: input.email.toLowerCase(),
    created_at: now,
    updated_at: now,
  };
  const counts = countParts(deps, clientId, undefined, user);
  await writeUser(deps, [
    part('user', putItem(deps, { ...teamKeys.user(clientId, user.id), entity: 'team-user', ...user }, itemAbsent)),
    ...emailParts(deps, clientId, user.id, undefined, user.email),
    ...counts,
    // A user joins a team that has its first owner (an owner's own count part checks the same).
    ...(counts.some((p) => p.name === 'account') ? [] : [part('account', checkItem(deps, teamKeys.team(clientId), itemExists))]),
  ]);
  return userView(deps, user);
}

const unchanged = (u: TeamUserItem): Condition => ({ expression: 'updated_at = :seen', values: { ':seen': u.updated_at } });

export function replaceUser(deps: Deps, clientId: string, id: number, input: TeamUserInput, acting: Acting | null) {
  return retryOnConflict(async () => {
    const current = await requireUser(deps, clientId, id);
    if (current.role_id === 'owner' || input.role_id === 'owner') requireOwnerActing(acting);
    await requireRole(deps, clientId, input.role_id);
    const updated: TeamUserItem = { ...current, ...input, email: input.email.toLowerCase(), updated_at: deps.clock().toISOString() };
    await writeUser(deps, [
      part(
        'user',
        updateItem(deps, teamKeys.user(clientId, id), { set: { ...input, email: updated.email, updated_at: updated.updated_at } }, unchanged(current)),
      ),
      ...emailParts(deps, clientId, id, current.email, updated.email),
      ...countParts(deps, clientId, current, updated),
    ]);
    return userView(deps, updated);
  });
}

export function deleteUser(deps: Deps, clientId: string, id: number, acting: Acting | null): Promise<void> {
  return retryOnConflict(async () => {
    const current = await requireUser(deps, clientId, id);
    if (current.role_id === 'owner') requireOwnerActing(acting);
    await writeUser(deps, [
      part('user', deleteItem(deps, teamKeys.user(clientId, id), unchanged(current))),
      ...emailParts(deps, clientId, id, current.email, undefined),
      ...countParts(deps, clientId, current, undefined),
    ]);
  });
}

/**
 * Active users who read alerts and asked to hear of this severity, a page
 * of the team at a time: whom alert e-mails go to, however large the team.
 */
export async function* alertRecipientPages(deps: Deps, clientId: string, hears: (u: TeamUserItem) => boolean, pageSize = 50): AsyncGenerator<TeamUserItem[]> {
  const roles = new Map<string, Promise<readonly Permission[]>>();
  const reads = (u: TeamUserItem) => {
    if (!roles.has(u.role_id)) roles.set(u.role_id, permissionsOf(deps, clientId, u.role_id));
    return roles.get(u.role_id)!.then((p) => p.includes('alerts:read'));
  };
  const team = queryPages(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':p': familyPrefix(CLIENT.sk.teamUser, TEAM_KEY_SPACE) },
    Limit: pageSize,
    ConsistentRead: true,
  });
  for await (const page of team) {
    const users = (page as unknown as TeamUserItem[]).filter((u) => u.status === 'active' && hears(u));
    const allowed = await Promise.all(users.map(reads));
    yield users.filter((_, i) => allowed[i]);
  }
}
