import { PageQuery } from '../schemas/fields.js';
import { CandidateCreate, RefereeInput, ReferenceRequestCreate, ReferenceRequestsQuery } from '../schemas/portal-v2.js';
import { TemplatesQuery } from '../schemas/portal-v2-groups.js';
import type { Operation } from './operation.js';

/**
 * Portal API version 2: candidates, templates, reference requests and their public pages; handlers under functions/http/portal-v2.
 * The request groups' operations are in ./portal-v2-request-groups.ts.
 * A family with team users: each bearer operation says what an `Acting-User` must be
 * (`team-user`: any active team user of the account).
 */
export const listCandidates = {
  operationId: 'listCandidates',
  family: 'portal-v2',
  method: 'GET',
  path: '/candidates',
  handler: 'portal-v2/candidates-list',
  auth: 'bearer',
  contract: 'project',
  query: PageQuery,
  actingUser: 'team-user',
} as const satisfies Operation;
export const createCandidate = {
  operationId: 'createCandidate',
  family: 'portal-v2',
  method: 'POST',
  path: '/candidates',
  handler: 'portal-v2/candidates-create',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  body: CandidateCreate,
  actingUser: 'team-user',
} as const satisfies Operation;
export const getCandidate = {
  operationId: 'getCandidate',
  family: 'portal-v2',
  method: 'GET',
  path: '/candidates/{id}',
  handler: 'portal-v2/candidates-get',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'team-user',
} as const satisfies Operation;
export const listTemplates = {
  operationId: 'listTemplates',
  family: 'portal-v2',
  method: 'GET',
  path: '/templates',
  handler: 'portal-v2/templates-list',
  auth: 'bearer',
  contract: 'spec',
  query: TemplatesQuery,
  actingUser: 'team-user',
} as const satisfies Operation;
export const listReferenceRequests = {
  operationId: 'listReferenceRequests',
  family: 'portal-v2',
  method: 'GET',
  path: '/reference-requests',
  handler: 'portal-v2/reference-requests-list',
  auth: 'bearer',
  contract: 'spec',
  query: ReferenceRequestsQuery,
  actingUser: 'team-user',
} as const satisfies Operation;
export const createReferenceRequest = {
  operationId: 'createReferenceRequest',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-requests',
  handler: 'portal-v2/reference-requests-create',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: ReferenceRequestCreate,
  actingUser: 'team-user',
} as const satisfies Operation;
export const getReferenceRequest = {
  operationId: 'getReferenceRequest',
  family: 'portal-v2',
  method: 'GET',
  path: '/reference-requests/{id}',
  handler: 'portal-v2/reference-requests-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
export const cancelReferenceRequest = {
  operationId: 'cancelReferenceRequest',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-requests/{id}/cancel',
  handler: 'portal-v2/reference-requests-cancel',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
export const addReferee = {
  operationId: 'addReferee',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-requests/{id}/referees',
  handler: 'portal-v2/reference-requests-add-referee',
  auth: 'bearer',
  contract: 'spec',
  idempotent: true,
  body: RefereeInput,
  actingUser: 'team-user',
} as const satisfies Operation;
export const sendReminders = {
  operationId: 'sendReminders',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-requests/{id}/reminders',
  handler: 'portal-v2/reference-requests-reminders',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
export const getReference = {
  operationId: 'getReference',
  family: 'portal-v2',
  method: 'GET',
  path: '/references/{id}',
  handler: 'portal-v2/references-get',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
export const downloadReferencePdf = {
  operationId: 'downloadReferencePdf',
  family: 'portal-v2',
  method: 'GET',
  path: '/references/{id}/pdf',
  handler: 'portal-v2/references-pdf',
  auth: 'bearer',
  contract: 'spec',
  actingUser: 'team-user',
} as const satisfies Operation;
// Public pages: the link's token is the credential.
export const showReferenceForm = {
  operationId: 'showReferenceForm',
  family: 'portal-v2',
  method: 'GET',
  path: '/reference-form/{token}',
  handler: 'portal-v2/reference-form-show',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitReferenceForm = {
  operationId: 'submitReferenceForm',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-form/{token}',
  handler: 'portal-v2/reference-form-submit',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const showRefereeSubmission = {
  operationId: 'showRefereeSubmission',
  family: 'portal-v2',
  method: 'GET',
  path: '/reference-submit/{token}',
  handler: 'portal-v2/reference-submit-show',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
export const submitReferees = {
  operationId: 'submitReferees',
  family: 'portal-v2',
  method: 'POST',
  path: '/reference-submit/{token}',
  handler: 'portal-v2/reference-submit-submit',
  auth: 'none',
  contract: 'project',
} as const satisfies Operation;
