import type { Severity } from '../platform/registration-vocabulary.js';

/**
 * Team roles (decision 10; design registration-monitoring section 6, portal
 * 1.3 rule 4 and 1.5 rule 2): the fixed permission vocabulary and the
 * built-in roles, one set for every family of the account. Pure rules: the
 * route tables name each operation's permission from here, and CDK synth
 * must not load the SDK.
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
  // Portal v2 request groups: accept or reject an item; read occupational health data, files and PDFs.
  'requests:review',
  'health:read',
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
    permissions: [
      'workers:read',
      'workers:write',
      'verifications:run',
      'alerts:read',
      'alerts:acknowledge',
      'evidence:read',
      'imports:write',
      'requests:review',
      'health:read',
    ],
  },
  viewer: { name: 'Viewer', permissions: ['workers:read', 'alerts:read', 'evidence:read', 'billing:read'] },
  billing: { name: 'Billing', permissions: ['billing:read'] },
} as const satisfies Record<string, RoleDefinition>;
export type BuiltInRole = keyof typeof BUILT_IN_ROLES;

export const isBuiltIn = (roleId: string): roleId is BuiltInRole => Object.hasOwn(BUILT_IN_ROLES, roleId);
