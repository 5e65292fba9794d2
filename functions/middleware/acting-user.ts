import { actingUserOf, permissionFor } from '../api/routes/acting-user.js';
import type { Operation } from '../api/routes/operation.js';
import { checkActingUser, type Acting } from '../core/access/team.js';
import type { Deps } from '../core/platform/deps.js';
import type { FamilyId } from '../core/platform/families.js';

export type { Acting } from '../core/access/team.js';

/**
 * `Acting-User` (decision 10), the one
 * place it is enforced: every HTTP handler runs this step for its operation,
 * with the rule its route entry states (`Operation.actingUser`, read by
 * ../api/routes/acting-user.ts), once the path names the caller's own object
 * (its 404 first) and before the body is validated or the operation reads or
 * writes anything. Absent, the account acts (null); an unknown, foreign,
 * disabled or unpermitted user is 403 `acting-user-not-permitted`.
 */
export async function checkActing(
  deps: Deps,
  op: Operation,
  request: { family: FamilyId; clientId: string | undefined; headers: Record<string, string | undefined>; params: Record<string, unknown> },
): Promise<Acting | null> {
  const rule = actingUserOf(op, request.family);
  if (rule === undefined || request.clientId === undefined) return null;
  return checkActingUser(deps, request.clientId, request.headers['acting-user'], permissionFor(rule, request.params));
}
