import { severityRank, type Severity } from './outcome.js';

/**
 * Team roles (design section 6, decision 10): the fixed permission vocabulary
 * and the built-in roles. Pure rules: the route table names each operation's
 * permission from here, and CDK synth must not load the SDK.
 */

export const PERMISSIONS = [
  'workers:read',
  'workers:write',
  'verifications:run',
  'alerts:read',
  'alerts:acknowledge',
  'evidence:read',
  'imports:write',
  'billing:read',
  'team:manage',
  'webhooks:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export type AlertMinSeverity = Severity | 'none';

export interface RoleDefinition {
  name: string;
  permissions: readonly Permission[];
}

/** Read-only; `admin` holds every permission, but only an owner changes owners. */
export const BUILT_IN_ROLES = {
  owner: { name: 'Owner', permissions: PERMISSIONS },
  admin: { name: 'Admin', permissions: PERMISSIONS },
  compliance_manager: {
    name: 'Compliance manager',
    permissions: ['workers:read', 'workers:write', 'verifications:run', 'alerts:read', 'alerts:acknowledge', 'evidence:read', 'imports:write'],
  },
  viewer: { name: 'Viewer', permissions: ['workers:read', 'alerts:read', 'evidence:read', 'billing:read'] },
  billing: { name: 'Billing', permissions: ['billing:read'] },
} as const satisfies Record<string, RoleDefinition>;
export type BuiltInRole = keyof typeof BUILT_IN_ROLES;

export const isBuiltIn = (roleId: string): roleId is BuiltInRole => Object.hasOwn(BUILT_IN_ROLES, roleId);

/** Does a user with `minimum` hear of an alert of `severity`? */
export const hearsOf = (minimum: AlertMinSeverity, severity: Severity): boolean => severityRank(severity) >= severityRank(minimum);
