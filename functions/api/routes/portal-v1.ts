import { PageQuery } from '../schemas/fields.js';
import { V1Subscribe } from '../schemas/portal-v1.js';
import { CandidateCreate } from '../schemas/portal-v2.js';
import { CertificateRequestCreate, GroupRequestsQuery, OccupationalHealthRequestCreate, TrainingRequestCreate } from '../schemas/portal-v2-groups.js';
import type { Operation } from './operation.js';

/**
 * The deprecated portal API version 1,
 * over portal v2 tokens; bodies and objects are portal v2's (one
 * serializer). `successor` is each operation's replacement in portal v2.
 */
export const listCandidates = {
  operationId: 'listCandidates',
  family: 'portal-v1',
  method: 'GET',
  path: '/candidates',
  handler: 'portal-v1/candidates-list',
  auth: 'bearer',
  contract: 'spec',
  query: PageQuery,
  successor: '/candidates',
} as const satisfies Operation;
export const createCandidate = {
  operationId: 'createCandidate',
  family: 'portal-v1',
  method: 'POST',
  path: '/candidates',
  handler: 'portal-v1/candidates-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: CandidateCreate,
  successor: '/candidates',
} as const satisfies Operation;
export const getCandidate = {
  operationId: 'getCandidate',
  family: 'portal-v1',
  method: 'GET',
  path: '/candidates/{id}',
  handler: 'portal-v1/candidates-get',
  auth: 'bearer',
  contract: 'spec',
  successor: '/candidates',
} as const satisfies Operation;
export const listTrainingRequests = {
  operationId: 'listTrainingRequests',
  family: 'portal-v1',
  method: 'GET',
  path: '/training-requests',
  handler: 'portal-v1/training-requests-list',
  auth: 'bearer',
  contract: 'spec',
  query: GroupRequestsQuery,
  successor: '/training-requests',
} as const satisfies Operation;
export const createTrainingRequest = {
  operationId: 'createTrainingRequest',
  family: 'portal-v1',
  method: 'POST',
  path: '/training-requests',
  handler: 'portal-v1/training-requests-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: TrainingRequestCreate,
  successor: '/training-requests',
} as const satisfies Operation;
export const getTrainingRequest = {
  operationId: 'getTrainingRequest',
  family: 'portal-v1',
  method: 'GET',
  path: '/training-requests/{id}',
  handler: 'portal-v1/training-requests-get',
  auth: 'bearer',
  contract: 'spec',
  successor: '/training-requests',
} as const satisfies Operation;
export const listOccupationalHealthRequests = {
  operationId: 'listOccupationalHealthRequests',
  family: 'portal-v1',
  method: 'GET',
  path: '/occupational-health-requests',
  handler: 'portal-v1/occupational-health-requests-list',
  auth: 'bearer',
  contract: 'spec',
  query: GroupRequestsQuery,
  successor: '/occupational-health-requests',
} as const satisfies Operation;
export const createOccupationalHealthRequest = {
  operationId: 'createOccupationalHealthRequest',
  family: 'portal-v1',
  method: 'POST',
  path: '/occupational-health-requests',
  handler: 'portal-v1/occupational-health-requests-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: OccupationalHealthRequestCreate,
  successor: '/occupational-health-requests',
} as const satisfies Operation;
export const getOccupationalHealthRequest = {
  operationId: 'getOccupationalHealthRequest',
  family: 'portal-v1',
  method: 'GET',
  path: '/occupational-health-requests/{id}',
  handler: 'portal-v1/occupational-health-requests-get',
  auth: 'bearer',
  contract: 'spec',
  successor: '/occupational-health-requests',
  actingUser: 'health:read',
} as const satisfies Operation;
export const listCertificateRequests = {
  operationId: 'listCertificateRequests',
  family: 'portal-v1',
  method: 'GET',
  path: '/certificate-requests',
  handler: 'portal-v1/certificate-requests-list',
  auth: 'bearer',
  contract: 'spec',
  query: GroupRequestsQuery,
  successor: '/certificate-requests',
} as const satisfies Operation;
export const createCertificateRequest = {
  operationId: 'createCertificateRequest',
  family: 'portal-v1',
  method: 'POST',
  path: '/certificate-requests',
  handler: 'portal-v1/certificate-requests-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: CertificateRequestCreate,
  successor: '/certificate-requests',
} as const satisfies Operation;
export const getCertificateRequest = {
  operationId: 'getCertificateRequest',
  family: 'portal-v1',
  method: 'GET',
  path: '/certificate-requests/{id}',
  handler: 'portal-v1/certificate-requests-get',
  auth: 'bearer',
  contract: 'spec',
  successor: '/certificate-requests',
} as const satisfies Operation;
export const subscribeWebhook = {
  operationId: 'subscribeWebhook',
  family: 'portal-v1',
  method: 'POST',
  path: '/webhooks',
  handler: 'portal-v1/webhooks-subscribe',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: V1Subscribe,
  successor: '/webhooks',
} as const satisfies Operation;
export const unsubscribeWebhook = {
  operationId: 'unsubscribeWebhook',
  family: 'portal-v1',
  method: 'DELETE',
  path: '/webhooks/{id}',
  handler: 'portal-v1/webhooks-unsubscribe',
  auth: 'bearer',
  contract: 'spec',
  successor: '/webhooks',
} as const satisfies Operation;
