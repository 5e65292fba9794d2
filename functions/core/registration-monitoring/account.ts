import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { createTeam, type TeamUserItem } from '../access/team.js';
import type { Deps } from '../platform/deps.js';

/**
 * A client's registration monitoring account: enabling
 * it lets the client's credentials into the family. The team is the
 * account's (access/team.ts): enabling makes it, with its first owner, when
 * the client has none yet.
 */

/**
 * `ops registration-monitoring account enable`: the account's team (or the one it has) and the flag
 * on the client. Enabling an enabled account changes nothing and answers its
 * first owner.
 */
export async function enableMonitoring(deps: Deps, clientId: string, owner: { name: string; email: string }): Promise<TeamUserItem> {
  const team = await createTeam(deps, clientId, owner);
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: clientKeys.item(clientId),
      UpdateExpression: 'SET monitoring_enabled_at = if_not_exists(monitoring_enabled_at, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': deps.clock().toISOString() },
    }),
  );
  return team.owner;
}
