import { DataSubjectRequest } from '../schemas/data-subjects.js';
import type { Operation } from './operation.js';

/**
 * A person's rights over their data (UK GDPR): an export of everything the
 * family holds about them for the agency, or its erasure. The same four
 * operations in each family that holds people's data
 * (core/data-rights/families.ts), one handler each under
 * functions/http/shared. Where a family has team users, only a user whose
 * role may manage the team (owner, admin) may ask: an erasure cannot be undone.
 */

export const startDataSubjectExport = {
  operationId: 'startDataSubjectExport',
  method: 'POST',
  path: '/data-subjects/exports',
  handler: 'shared/data-subjects-export-start',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  body: DataSubjectRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const getDataSubjectExport = {
  operationId: 'getDataSubjectExport',
  method: 'GET',
  path: '/data-subjects/exports/{id}',
  handler: 'shared/data-subjects-export-get',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'team:manage',
} as const satisfies Operation;
export const startDataSubjectErasure = {
  operationId: 'startDataSubjectErasure',
  method: 'POST',
  path: '/data-subjects/erasures',
  handler: 'shared/data-subjects-erasure-start',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  body: DataSubjectRequest,
  actingUser: 'team:manage',
} as const satisfies Operation;
export const getDataSubjectErasure = {
  operationId: 'getDataSubjectErasure',
  method: 'GET',
  path: '/data-subjects/erasures/{id}',
  handler: 'shared/data-subjects-erasure-get',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'team:manage',
} as const satisfies Operation;

export const dataSubjectOperations = { startDataSubjectExport, getDataSubjectExport, startDataSubjectErasure, getDataSubjectErasure };
