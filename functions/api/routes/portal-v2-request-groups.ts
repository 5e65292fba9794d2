import { GroupRequestsQuery, ItemRejection, groupCreateBody } from '../schemas/portal-v2-groups.js';
import type { Operation } from './operation.js';

/**
 * Portal API version 2's request groups (training, occupational health and the other kinds): one set of operations, the group named
 * by its path segment; handlers under functions/http/portal-v2. `actingUser` as in ./portal-v2.ts.
 */
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
