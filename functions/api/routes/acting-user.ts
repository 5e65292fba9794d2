import type { Permission } from '../../core/access/roles.js';
import { FAMILIES, type FamilyId } from '../../core/platform/families.js';
import { isHealthSegment } from '../../core/portal-v2/groups/names.js';
import type { ActingUserRule, Operation } from './operation.js';

/**
 * `Acting-User` as the route table states it: the one reading of an operation's `actingUser`, for the HTTP
 * handler that enforces it, the route table and the OpenAPI documents.
 */

/**
 * What an operation needs of an acting user in a family, or undefined when
 * the family does not take the header there: a family's own operation as it
 * says; a shared one (webhooks, tokens) only in a family with team users.
 */
export function actingUserOf(op: Pick<Operation, 'actingUser' | 'family' | 'auth'>, family: FamilyId): ActingUserRule | undefined {
  if (op.auth !== 'bearer' || op.actingUser === undefined) return undefined;
  if (op.family !== undefined) return op.family === family ? op.actingUser : undefined;
  return (FAMILIES[family] as { actingUser?: boolean }).actingUser ? op.actingUser : undefined;
}

/** The permission a request needs (null: any active team user), from the rule and the request's path parameters. */
export function permissionFor(rule: ActingUserRule, params: Record<string, unknown>): Permission | null {
  if (rule === 'team-user') return null;
  if (typeof rule === 'string') return rule;
  return typeof params.group === 'string' && isHealthSegment(params.group) ? rule.healthKinds : null;
}

/** The rule in words, for the documents: `needs workers:read`, `needs health:read for a health kind's request`. */
export function describeRule(rule: ActingUserRule): { permission: Permission | null; needs: string | null } {
  if (rule === 'team-user') return { permission: null, needs: null };
  if (typeof rule === 'string') return { permission: rule, needs: rule };
  return { permission: rule.healthKinds, needs: `${rule.healthKinds} for a health kind's request` };
}
