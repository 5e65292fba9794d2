import { BUILT_IN_ROLES } from '../../functions/core/access/roles.js';
import { createTeam, createUser, getUser, listUsers, replaceUser, userView } from '../../functions/core/access/team.js';
import type { OpsArea, OpsCommand, OpsKit } from './kit.js';

/**
 * The account's team (decision 10) for every family: a client without
 * registration monitoring (portal v2 reviewers and health readers) gets its
 * team and users here; a monitoring client may also manage the same team
 * through /registration-monitoring/team. The operator acts as the client
 * (no `Acting-User`), so it may make owners.
 */

export const TEAM_OPTIONS = {
  'owner-name': { type: 'string' },
  'owner-email': { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'user-id': { type: 'string' },
} as const;

export function teamCommands(k: OpsKit): Record<string, OpsCommand> {
  return {
    'team create': {
      options: ['client-id', 'owner-name', 'owner-email'],
      args: '--client-id ID --owner-name NAME --owner-email EMAIL',
      about: "the account's team with its first owner (again: prints that owner; `registration-monitoring account enable` makes it too)",
      run: async () => {
        const deps = k.deps();
        k.print(userView(deps, (await createTeam(deps, k.text('client-id'), { name: k.text('owner-name'), email: k.text('owner-email') })).owner));
      },
    },
    'team users': {
      options: ['client-id'],
      args: '--client-id ID',
      about: "the account's team users (their ids go in Acting-User)",
      run: async () => {
        const deps = k.deps();
        k.print((await listUsers(deps, k.text('client-id'))).map((u) => userView(deps, u)));
      },
    },
    'team add-user': {
      options: ['client-id', 'name', 'email', 'role'],
      args: '--client-id ID --name NAME --email EMAIL --role ROLE',
      about: `a team user (${Object.keys(BUILT_IN_ROLES).join(', ')} or a custom role id); alerts from high`,
      run: async () =>
        k.print(
          await createUser(
            k.deps(),
            k.text('client-id'),
            { name: k.text('name'), email: k.text('email'), role_id: k.text('role'), status: 'active', alert_min_severity: 'high' },
            null,
          ),
        ),
    },
    'team disable-user': {
      options: ['client-id', 'user-id'],
      args: '--client-id ID --user-id N',
      about: 'the user may no longer act (Acting-User is 403); the last active owner stays',
      run: async () => {
        const deps = k.deps();
        const clientId = k.text('client-id');
        const { name, email, role_id, alert_min_severity } = await getUser(deps, clientId, k.int('user-id'));
        k.print(await replaceUser(deps, clientId, k.int('user-id'), { name, email, role_id, status: 'disabled', alert_min_severity }, null));
      },
    },
  };
}

/** Shared (`ops team …`), not portal v2's: the team is the account's, and registration monitoring uses the same one. */
export const teamOps: OpsArea = { options: TEAM_OPTIONS, commands: teamCommands };
