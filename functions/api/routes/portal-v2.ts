import { PageQuery } from '../schemas/fields.js';
import { CandidateCreate, RefereeInput, ReferenceRequestCreate, ReferenceRequestsQuery } from '../schemas/portal-v2.js';
import { GroupRequestsQuery, ItemRejection, TemplatesQuery, groupCreateBody } from '../schemas/portal-v2-groups.js';
import type { Operation } from './operation.js';

/**
 * Portal API version 2; handlers under functions/http/portal-v2.
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
// Request groups: one set of operations, the group named by its path segment.
export const listGroupRequests = {
  operationId: 'listGroupRequests',
  family: 'portal-v2',
  method: 'GET',
  path: '/{group}',
  handler: 'portal-v2/group-requests-list',
  auth: 'bearer',
  contract: 'project',
  query: GroupRequestsQuery,
  actingUser: 'team-user',
} as const satisfies Operation;
export const createGroupRequest = {
  operationId: 'createGroupRequest',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}',
  handler: 'portal-v2/group-requests-create',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  body: groupCreateBody,
  actingUser: 'team-user',
} as const satisfies Operation;
// Reviews need requests:review; a health kind's data, files and PDF need health:read, another kind's any active team user.
export const getGroupRequest = {
  operationId: 'getGroupRequest',
  family: 'portal-v2',
  method: 'GET',
  path: '/{group}/{id}',
  handler: 'portal-v2/group-requests-get',
  auth: 'bearer',
  contract: 'project',
  actingUser: { healthKinds: 'health:read' },
} as const satisfies Operation;
export const cancelGroupRequest = {
  operationId: 'cancelGroupRequest',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}/{id}/cancel',
  handler: 'portal-v2/group-requests-cancel',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'team-user',
} as const satisfies Operation;
export const remindGroupRequest = {
  operationId: 'remindGroupRequest',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}/{id}/reminders',
  handler: 'portal-v2/group-requests-reminders',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'team-user',
} as const satisfies Operation;
export const acceptGroupItem = {
  operationId: 'acceptGroupItem',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}/{id}/items/{item_id}/accept',
  handler: 'portal-v2/group-items-accept',
  auth: 'bearer',
  contract: 'project',
  actingUser: 'requests:review',
} as const satisfies Operation;
export const rejectGroupItem = {
  operationId: 'rejectGroupItem',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}/{id}/items/{item_id}/reject',
  handler: 'portal-v2/group-items-reject',
  auth: 'bearer',
  contract: 'project',
  body: ItemRejection,
  actingUser: 'requests:review',
} as const satisfies Operation;
export const reissueGroupItem = {
  operationId: 'reissueGroupItem',
  family: 'portal-v2',
  method: 'POST',
  path: '/{group}/{id}/items/{item_id}/reissue',
  handler: 'portal-v2/group-items-reissue',
  auth: 'bearer',
  contract: 'project',
  idempotent: true,
  actingUser: 'team-user',
} as const satisfies Operation;
export const downloadGroupItemFile = {
  operationId: 'downloadGroupItemFile',
  family: 'portal-v2',
  method: 'GET',
  path: '/{group}/{id}/items/{item_id}/file',
  handler: 'portal-v2/group-items-file',
  auth: 'bearer',
  contract: 'project',
  documents: ['request-files'],
  actingUser: { healthKinds: 'health:read' },
} as const satisfies Operation;
export const downloadGroupRequestPdf = {
  operationId: 'downloadGroupRequestPdf',
  family: 'portal-v2',
  method: 'GET',
  path: '/{group}/{id}/pdf',
  handler: 'portal-v2/group-requests-pdf',
  auth: 'bearer',
  contract: 'project',
  actingUser: { healthKinds: 'health:read' },
} as const satisfies Operation;
// The request groups' public pages: the candidate's, and a third party's form; files go straight to the bucket.
export const showRequestSubmission = {
  operationId: 'showRequestSubmission',
  family: 'portal-v2',
  method: 'GET',
  path: '/request-submit/{token}',
  handler: 'portal-v2/request-submit-show',
  auth: 'none',
  contract: 'project',
  documents: ['request-uploads'],
} as const satisfies Operation;
export const submitRequestSubmission = {
  operationId: 'submitRequestSubmission',
  family: 'portal-v2',
  method: 'POST',
  path: '/request-submit/{token}',
  handler: 'portal-v2/request-submit-submit',
  auth: 'none',
  contract: 'project',
  documents: ['request-uploads'],
} as const satisfies Operation;
export const requestSubmissionUploaded = {
  operationId: 'requestSubmissionUploaded',
  family: 'portal-v2',
  method: 'GET',
  path: '/request-submit/{token}/uploaded',
  handler: 'portal-v2/request-submit-uploaded',
  auth: 'none',
  contract: 'project',
  documents: ['request-files', 'request-uploads'],
} as const satisfies Operation;
export const showRequestForm = {
  operationId: 'showRequestForm',
  family: 'portal-v2',
  method: 'GET',
  path: '/request-form/{token}',
  handler: 'portal-v2/request-form-show',
  auth: 'none',
  contract: 'project',
  documents: ['request-uploads'],
} as const satisfies Operation;
export const submitRequestForm = {
  operationId: 'submitRequestForm',
  family: 'portal-v2',
  method: 'POST',
  path: '/request-form/{token}',
  handler: 'portal-v2/request-form-submit',
  auth: 'none',
  contract: 'project',
  documents: ['request-uploads'],
} as const satisfies Operation;
export const requestFormUploaded = {
  operationId: 'requestFormUploaded',
  family: 'portal-v2',
  method: 'GET',
  path: '/request-form/{token}/uploaded',
  handler: 'portal-v2/request-form-uploaded',
  auth: 'none',
  contract: 'project',
  documents: ['request-files', 'request-uploads'],
} as const satisfies Operation;
