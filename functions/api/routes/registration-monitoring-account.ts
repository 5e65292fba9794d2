import { ImportQuery, ImportsQuery, ImportUploadQuery, TeamRoleRequest, TeamUserRequest, UsageQuery } from '../schemas/registration-monitoring.js';
import { MAX_IMPORT_BYTES } from '../../core/registration-monitoring/import-limits.js';
import type { Operation } from './operation.js';

/**
 * The registration monitoring family's account operations: usage and billing, bulk imports, and team roles and users
 * (handlers under functions/http/registration-monitoring). Like the rest of the family, every one is `contract: 'spec'`;
 * `actingUser` as in ./registration-monitoring.ts.
 */
export const getUsage = {
  operationId: 'getUsage',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/billing/usage',
  handler: 'registration-monitoring/billing-usage',
  auth: 'bearer',
  contract: 'spec',
  query: UsageQuery,
  actingUser: 'billing:read',
} as const satisfies Operation;
export const listImports = {
  operationId: 'listImports',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/imports',
  handler: 'registration-monitoring/imports-list',
  auth: 'bearer',
  contract: 'spec',
  query: ImportsQuery,
  actingUser: 'imports:write',
} as const satisfies Operation;
// The one route with a larger body (decision 17): a CSV file of up to 5 MiB.
export const startImport = {
  operationId: 'startImport',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/imports',
  handler: 'registration-monitoring/imports-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  query: ImportUploadQuery,
  upload: { maxBytes: MAX_IMPORT_BYTES, types: ['text/csv', 'multipart/form-data'] },
  timeoutSeconds: 29,
  actingUser: 'imports:write',
} as const satisfies Operation;
export const getImport = {
  operationId: 'getImport',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/imports/{id}',
  handler: 'registration-monitoring/imports-get',
  auth: 'bearer',
  contract: 'spec',
  query: ImportQuery,
  actingUser: 'imports:write',
} as const satisfies Operation;
export const listTeamRoles = {
  operationId: 'listTeamRoles',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/team/roles',
  handler: 'registration-monitoring/team-roles-list',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const createTeamRole = {
  operationId: 'createTeamRole',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/team/roles',
  handler: 'registration-monitoring/team-roles-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: TeamRoleRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const getTeamRole = {
  operationId: 'getTeamRole',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/team/roles/{roleId}',
  handler: 'registration-monitoring/team-roles-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const replaceTeamRole = {
  operationId: 'replaceTeamRole',
  family: 'registration-monitoring',
  method: 'PUT',
  path: '/team/roles/{roleId}',
  handler: 'registration-monitoring/team-roles-replace',
  auth: 'bearer',
  contract: 'spec',
  body: TeamRoleRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const deleteTeamRole = {
  operationId: 'deleteTeamRole',
  family: 'registration-monitoring',
  method: 'DELETE',
  path: '/team/roles/{roleId}',
  handler: 'registration-monitoring/team-roles-delete',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const listTeamUsers = {
  operationId: 'listTeamUsers',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/team/users',
  handler: 'registration-monitoring/team-users-list',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const createTeamUser = {
  operationId: 'createTeamUser',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/team/users',
  handler: 'registration-monitoring/team-users-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: TeamUserRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const getTeamUser = {
  operationId: 'getTeamUser',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/team/users/{id}',
  handler: 'registration-monitoring/team-users-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const replaceTeamUser = {
  operationId: 'replaceTeamUser',
  family: 'registration-monitoring',
  method: 'PUT',
  path: '/team/users/{id}',
  handler: 'registration-monitoring/team-users-replace',
  auth: 'bearer',
  contract: 'spec',
  body: TeamUserRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const deleteTeamUser = {
  operationId: 'deleteTeamUser',
  family: 'registration-monitoring',
  method: 'DELETE',
  path: '/team/users/{id}',
  handler: 'registration-monitoring/team-users-delete',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team:manage',
} as const satisfies Operation;
