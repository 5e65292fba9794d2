import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import { familyPrefix } from '../platform/key-registry.js';
import { deleteItem, itemAbsent, itemExists, part, putItem, transact, updateItem } from '../platform/transact.js';
import { BUILT_IN_ROLES, isBuiltIn, type Permission } from './roles.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { listTeamItems, listUsers, readTeamItem, TEAM_KEY_SPACE, teamKeys, type RoleItem, type TeamUserItem } from './team.js';

/**
 * The team's roles: the built-in ones (read-only) and the account's own. A
 * custom role counts its users (./team.ts moves the count with each user), so
 * one in use is never deleted.
 */

const CLIENT = TABLE_KEYS.client;

export interface RoleInput {
  name: string;
  permissions: Permission[];
}

const builtInView = (id: string, users: TeamUserItem[]) => ({
  id,
  name: BUILT_IN_ROLES[id as keyof typeof BUILT_IN_ROLES].name,
  permissions: [...BUILT_IN_ROLES[id as keyof typeof BUILT_IN_ROLES].permissions],
  built_in: true,
  user_count: users.filter((u) => u.role_id === id).length,
});
const roleView = (r: RoleItem) => ({ id: r.id, name: r.name, permissions: r.permissions, built_in: false, user_count: r.user_count });

export async function listRoles(deps: Deps, clientId: string) {
  const users = await listUsers(deps, clientId);
  const custom = await listTeamItems<RoleItem>(deps, clientId, familyPrefix(CLIENT.sk.teamRole, TEAM_KEY_SPACE));
  return [...Object.keys(BUILT_IN_ROLES).map((id) => builtInView(id, users)), ...custom.map(roleView)];
}

export async function getRole(deps: Deps, clientId: string, id: string) {
  if (isBuiltIn(id)) return builtInView(id, await listUsers(deps, clientId));
  const role = await readTeamItem<RoleItem>(deps, teamKeys.role(clientId, id));
  if (!role) throw new DomainError('not-found', `No role ${id}`);
  return roleView(role);
}

export async function createRole(deps: Deps, clientId: string, input: RoleInput) {
  const now = deps.clock().toISOString();
  const role: RoleItem = {
    id: `custom-${await nextId(deps, TEAM_KEY_SPACE, 'team-role')}`,
    client_id: clientId,
    name: input.name,
    permissions: [...new Set(input.permissions)],
    user_count: 0,
    created_at: now,
    updated_at: now,
  };
  await transact(deps, [part('role', putItem(deps, { ...teamKeys.role(clientId, role.id), entity: 'team-role', ...role }, itemAbsent))]);
  return roleView(role);
}

const refuseBuiltIn = (id: string) => {
  if (isBuiltIn(id)) throw new DomainError('role-built-in', `The built-in role ${id} cannot be changed or deleted`);
};

export async function replaceRole(deps: Deps, clientId: string, id: string, input: RoleInput) {
  refuseBuiltIn(id);
  await getRole(deps, clientId, id);
  const changes = { name: input.name, permissions: [...new Set(input.permissions)], updated_at: deps.clock().toISOString() };
  await transact(deps, [part('role', updateItem(deps, teamKeys.role(clientId, id), { set: changes }, itemExists))], {
    role: new DomainError('not-found', `No role ${id}`),
  });
  return getRole(deps, clientId, id);
}

export async function deleteRole(deps: Deps, clientId: string, id: string): Promise<void> {
  refuseBuiltIn(id);
  await getRole(deps, clientId, id);
  await transact(deps, [part('role', deleteItem(deps, teamKeys.role(clientId, id), { expression: 'user_count = :none', values: { ':none': 0 } }))], {
    role: (old) =>
      old
        ? new DomainError('role-in-use', `Role ${id} still has ${String(old.user_count)} users: give them another role first`)
        : new DomainError('not-found', `No role ${id}`),
  });
}
