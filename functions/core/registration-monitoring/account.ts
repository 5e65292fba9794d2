import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, getClient } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId, padId } from '../platform/ids.js';
import { key, TABLE_KEYS } from '../platform/key-registry.js';
import { itemAbsent, part, putItem, transact, TransactionFailed, updateItem } from '../platform/transact.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';

/**
 * A client's registration monitoring account (design section 6): enabling
 * it lets the client's credentials into the family and makes the first team
 * user, an owner. The account record counts owners, so that the last one
 * can never be removed (team.ts conditions on it).
 */

export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface TeamUserItem {
  id: number;
  client_id: string;
  name: string;
  email: string;
  role_id: string;
  status: 'active' | 'disabled';
  alert_min_severity: Severity | 'none';
  created_at: string;
  updated_at: string;
}

const CLIENT = TABLE_KEYS.client;
export const accountKeys = {
  account: (clientId: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.monitoring, FAMILY) }),
  teamUser: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.teamUser, FAMILY, padId(id)) }),
  /** One team user per e-mail address in the account (team.ts moves it with the user). */
  teamUserEmail: (clientId: string, email: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.teamUserEmail, FAMILY, email) }),
};

/**
 * `monitoring enable`: the flag on the client, the account record and the
 * first owner in one transaction. Enabling an enabled account changes
 * nothing and answers its first owner.
 */
export async function enableMonitoring(deps: Deps, clientId: string, owner: { name: string; email: string }): Promise<TeamUserItem> {
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', `No client ${clientId}`);
  const existing = await firstOwner(deps, clientId);
  if (existing) return existing;
  const now = deps.clock().toISOString();
  const id = await nextId(deps, FAMILY, 'team-user');
  const user: TeamUserItem = { id, client_id: clientId, name: owner.name, email: owner.email.toLowerCase(), role_id: 'owner', status: 'active', alert_min_severity: 'high', created_at: now, updated_at: now };
  try {
    await transact(deps, [
      part('account', putItem(deps, { ...accountKeys.account(clientId), entity: 'monitoring-account', client_id: clientId, owner_count: 1, first_owner_id: id, enabled_at: now }, itemAbsent)),
      part('owner', putItem(deps, { ...accountKeys.teamUser(clientId, id), entity: 'team-user', ...user }, itemAbsent)),
      // The owner's address, as team.ts keeps every user's: one user per address.
      part('owner-email', putItem(deps, { ...accountKeys.teamUserEmail(clientId, user.email), entity: 'team-user-email', user_id: id })),
      part('client', updateItem(deps, clientKeys.item(clientId), { set: { monitoring_enabled_at: now } })),
    ]);
    return user;
  } catch (err) {
    // A concurrent enable won: answer its owner.
    if (err instanceof TransactionFailed && err.has('account')) return (await firstOwner(deps, clientId))!;
    throw err;
  }
}

async function firstOwner(deps: Deps, clientId: string): Promise<TeamUserItem | undefined> {
  const get = (k: { pk: string; sk: string }) => deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true })).then((r) => r.Item);
  const account = await get(accountKeys.account(clientId));
  return account && ((await get(accountKeys.teamUser(clientId, Number(account.first_owner_id)))) as TeamUserItem);
}
