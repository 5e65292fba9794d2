import {
  AcknowledgeManyRequest,
  AcknowledgeRequest,
  AlertsQuery,
  EvidenceQuery,
  MonitoringBulkRequest,
  MonitoringSettingsRequest,
  VerificationJobRequest,
  VerificationsQuery,
  VerifyQuery,
  WorkerCreate,
  WorkerMergePatch,
  WorkersQuery,
} from '../schemas/registration-monitoring.js';
import type { Operation } from './operation.js';

/**
 * The registration monitoring family's own operations on workers, their checks, alerts, monitoring and evidence; handlers under
 * functions/http/registration-monitoring. The account's operations (usage, imports, team) are in ./registration-monitoring-account.ts.
 * `actingUser`: what an `Acting-User` must be allowed to do for each, checked by the HTTP handler after the path's 404, before the body
 * and before anything else is read or written; the shared operations say theirs in ./shared.ts (webhooks: `webhooks:manage`).
 * Every one of them is `contract: 'spec'`: the specification names each (workers create/list/get/update/partially update/delete, verify one,
 * verification history, batch verify and its status, alerts list/get/acknowledge one/in bulk, monitoring settings single and bulk,
 * evidence list/metadata/download, and the account's billing and usage, imports list/upload/status, team roles and users CRUD); paths
 * and fields are ours.
 */
export const createWorker = {
  operationId: 'createWorker',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/workers',
  handler: 'registration-monitoring/workers-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: WorkerCreate,
  actingUser: 'workers:write',
} as const satisfies Operation;
export const listWorkers = {
  operationId: 'listWorkers',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/workers',
  handler: 'registration-monitoring/workers-list',
  auth: 'bearer',
  contract: 'spec',
  query: WorkersQuery,
  actingUser: 'workers:read',
} as const satisfies Operation;
export const getWorker = {
  operationId: 'getWorker',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/workers/{id}',
  handler: 'registration-monitoring/workers-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'workers:read',
} as const satisfies Operation;
export const replaceWorker = {
  operationId: 'replaceWorker',
  family: 'registration-monitoring',
  method: 'PUT',
  path: '/workers/{id}',
  handler: 'registration-monitoring/workers-replace',
  auth: 'bearer',
  contract: 'spec',
  body: WorkerCreate,
  actingUser: 'workers:write',
} as const satisfies Operation;
export const patchWorker = {
  operationId: 'patchWorker',
  family: 'registration-monitoring',
  method: 'PATCH',
  path: '/workers/{id}',
  handler: 'registration-monitoring/workers-patch',
  auth: 'bearer',
  contract: 'spec',
  body: WorkerMergePatch,
  contentType: 'application/merge-patch+json',
  actingUser: 'workers:write',
} as const satisfies Operation;
export const archiveWorker = {
  operationId: 'archiveWorker',
  family: 'registration-monitoring',
  method: 'DELETE',
  path: '/workers/{id}',
  handler: 'registration-monitoring/workers-archive',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'workers:write',
} as const satisfies Operation;
export const verifyWorker = {
  operationId: 'verifyWorker',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/workers/{id}/verifications',
  handler: 'registration-monitoring/verifications-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  query: VerifyQuery,
  actingUser: 'verifications:run',
} as const satisfies Operation;
export const listVerifications = {
  operationId: 'listVerifications',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/workers/{id}/verifications',
  handler: 'registration-monitoring/verifications-list',
  auth: 'bearer',
  contract: 'spec',
  query: VerificationsQuery,
  actingUser: 'workers:read',
} as const satisfies Operation;
export const startVerificationJob = {
  operationId: 'startVerificationJob',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/verification-jobs',
  handler: 'registration-monitoring/verification-jobs-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: VerificationJobRequest,
  actingUser: 'verifications:run',
} as const satisfies Operation;
export const getVerificationJob = {
  operationId: 'getVerificationJob',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/verification-jobs/{id}',
  handler: 'registration-monitoring/verification-jobs-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'verifications:run',
} as const satisfies Operation;
export const listAlerts = {
  operationId: 'listAlerts',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/alerts',
  handler: 'registration-monitoring/alerts-list',
  auth: 'bearer',
  contract: 'spec',
  query: AlertsQuery,
  actingUser: 'alerts:read',
} as const satisfies Operation;
// A static segment: listed before `{id}` so no router could take it for an id.
export const acknowledgeAlerts = {
  operationId: 'acknowledgeAlerts',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/alerts/acknowledge',
  handler: 'registration-monitoring/alerts-acknowledge-many',
  auth: 'bearer',
  contract: 'spec',
  body: AcknowledgeManyRequest,
  actingUser: 'alerts:acknowledge',
} as const satisfies Operation;
export const getAlert = {
  operationId: 'getAlert',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/alerts/{id}',
  handler: 'registration-monitoring/alerts-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'alerts:read',
} as const satisfies Operation;
export const acknowledgeAlert = {
  operationId: 'acknowledgeAlert',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/alerts/{id}/acknowledge',
  handler: 'registration-monitoring/alerts-acknowledge',
  auth: 'bearer',
  contract: 'spec',
  body: AcknowledgeRequest,
  actingUser: 'alerts:acknowledge',
} as const satisfies Operation;
export const getMonitoring = {
  operationId: 'getMonitoring',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/workers/{id}/monitoring',
  handler: 'registration-monitoring/monitoring-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'workers:write',
} as const satisfies Operation;
export const putMonitoring = {
  operationId: 'putMonitoring',
  family: 'registration-monitoring',
  method: 'PUT',
  path: '/workers/{id}/monitoring',
  handler: 'registration-monitoring/monitoring-put',
  auth: 'bearer',
  contract: 'spec',
  body: MonitoringSettingsRequest,
  actingUser: 'workers:write',
} as const satisfies Operation;
export const bulkMonitoring = {
  operationId: 'bulkMonitoring',
  family: 'registration-monitoring',
  method: 'POST',
  path: '/monitoring/bulk',
  handler: 'registration-monitoring/monitoring-bulk',
  auth: 'bearer',
  contract: 'spec',
  body: MonitoringBulkRequest,
  actingUser: 'workers:write',
} as const satisfies Operation;
export const listEvidence = {
  operationId: 'listEvidence',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/evidence',
  handler: 'registration-monitoring/evidence-list',
  auth: 'bearer',
  contract: 'spec',
  query: EvidenceQuery,
  actingUser: 'evidence:read',
} as const satisfies Operation;
export const getEvidence = {
  operationId: 'getEvidence',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/evidence/{id}',
  handler: 'registration-monitoring/evidence-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'evidence:read',
} as const satisfies Operation;
export const downloadEvidence = {
  operationId: 'downloadEvidence',
  family: 'registration-monitoring',
  method: 'GET',
  path: '/evidence/{id}/download',
  handler: 'registration-monitoring/evidence-download',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'evidence:read',
} as const satisfies Operation;
