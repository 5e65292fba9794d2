import { PageQuery } from '../schemas/fields.js';
import { CandidateCreate, RefereeInput, ReferenceRequestCreate, ReferenceRequestsQuery } from '../schemas/portal-v2.js';
import { GroupRequestsQuery, ItemRejection, TemplatesQuery, groupCreateBody } from '../schemas/portal-v2-groups.js';
import { familyOperations } from './operation.js';

/** Portal API version 2 (design section 6); handlers under functions/http/portal-v2. */
export const portalV2 = familyOperations('portal-v2', {
  listCandidates: { method: 'GET', path: '/candidates', handler: 'portal-v2/candidates-list', auth: 'bearer', contract: 'project', query: PageQuery },
  createCandidate: { method: 'POST', path: '/candidates', handler: 'portal-v2/candidates-create', auth: 'bearer', contract: 'project', idempotent: true, body: CandidateCreate },
  getCandidate: { method: 'GET', path: '/candidates/{id}', handler: 'portal-v2/candidates-get', auth: 'bearer', contract: 'project' },
  listTemplates: { method: 'GET', path: '/templates', handler: 'portal-v2/templates-list', auth: 'bearer', contract: 'spec', query: TemplatesQuery },
  listReferenceRequests: { method: 'GET', path: '/reference-requests', handler: 'portal-v2/reference-requests-list', auth: 'bearer', contract: 'spec', query: ReferenceRequestsQuery },
  createReferenceRequest: {
    method: 'POST',
    path: '/reference-requests',
    handler: 'portal-v2/reference-requests-create',
    auth: 'bearer',
    contract: 'spec',
    idempotent: true,
    body: ReferenceRequestCreate,
  },
  getReferenceRequest: { method: 'GET', path: '/reference-requests/{id}', handler: 'portal-v2/reference-requests-get', auth: 'bearer', contract: 'spec' },
  cancelReferenceRequest: { method: 'POST', path: '/reference-requests/{id}/cancel', handler: 'portal-v2/reference-requests-cancel', auth: 'bearer', contract: 'spec' },
  addReferee: {
    method: 'POST',
    path: '/reference-requests/{id}/referees',
    handler: 'portal-v2/reference-requests-add-referee',
    auth: 'bearer',
    contract: 'spec',
    idempotent: true,
    body: RefereeInput,
  },
  sendReminders: { method: 'POST', path: '/reference-requests/{id}/reminders', handler: 'portal-v2/reference-requests-reminders', auth: 'bearer', contract: 'spec' },
  getReference: { method: 'GET', path: '/references/{id}', handler: 'portal-v2/references-get', auth: 'bearer', contract: 'spec' },
  downloadReferencePdf: { method: 'GET', path: '/references/{id}/pdf', handler: 'portal-v2/references-pdf', auth: 'bearer', contract: 'spec' },
  // Public pages: the link's token is the credential.
  showReferenceForm: { method: 'GET', path: '/reference-form/{token}', handler: 'portal-v2/reference-form-show', auth: 'none', contract: 'project' },
  submitReferenceForm: { method: 'POST', path: '/reference-form/{token}', handler: 'portal-v2/reference-form-submit', auth: 'none', contract: 'project' },
  showRefereeSubmission: { method: 'GET', path: '/reference-submit/{token}', handler: 'portal-v2/reference-submit-show', auth: 'none', contract: 'project' },
  submitReferees: { method: 'POST', path: '/reference-submit/{token}', handler: 'portal-v2/reference-submit-submit', auth: 'none', contract: 'project' },
  // Request groups (design portal-and-facades section 1): one set of operations, the group named by its path segment.
  listGroupRequests: { method: 'GET', path: '/{group}', handler: 'portal-v2/group-requests-list', auth: 'bearer', contract: 'project', query: GroupRequestsQuery },
  createGroupRequest: { method: 'POST', path: '/{group}', handler: 'portal-v2/group-requests-create', auth: 'bearer', contract: 'project', idempotent: true, body: groupCreateBody },
  // With Acting-User: reviews need requests:review; a health kind's data, files and PDF need health:read (design 1.3 rule 4, 1.5 rule 2).
  getGroupRequest: { method: 'GET', path: '/{group}/{id}', handler: 'portal-v2/group-requests-get', auth: 'bearer', contract: 'project', actingUser: 'health:read' },
  cancelGroupRequest: { method: 'POST', path: '/{group}/{id}/cancel', handler: 'portal-v2/group-requests-cancel', auth: 'bearer', contract: 'project' },
  remindGroupRequest: { method: 'POST', path: '/{group}/{id}/reminders', handler: 'portal-v2/group-requests-reminders', auth: 'bearer', contract: 'project' },
  acceptGroupItem: { method: 'POST', path: '/{group}/{id}/items/{item_id}/accept', handler: 'portal-v2/group-items-accept', auth: 'bearer', contract: 'project', actingUser: 'requests:review' },
  rejectGroupItem: { method: 'POST', path: '/{group}/{id}/items/{item_id}/reject', handler: 'portal-v2/group-items-reject', auth: 'bearer', contract: 'project', body: ItemRejection, actingUser: 'requests:review' },
  reissueGroupItem: { method: 'POST', path: '/{group}/{id}/items/{item_id}/reissue', handler: 'portal-v2/group-items-reissue', auth: 'bearer', contract: 'project', idempotent: true },
  downloadGroupItemFile: { method: 'GET', path: '/{group}/{id}/items/{item_id}/file', handler: 'portal-v2/group-items-file', auth: 'bearer', contract: 'project', documents: ['request-files'], actingUser: 'health:read' },
  downloadGroupRequestPdf: { method: 'GET', path: '/{group}/{id}/pdf', handler: 'portal-v2/group-requests-pdf', auth: 'bearer', contract: 'project', actingUser: 'health:read' },
  // The request groups' public pages: the candidate's, and a third party's form; files go straight to the bucket.
  showRequestSubmission: { method: 'GET', path: '/request-submit/{token}', handler: 'portal-v2/request-submit-show', auth: 'none', contract: 'project', documents: ['request-uploads'] },
  submitRequestSubmission: { method: 'POST', path: '/request-submit/{token}', handler: 'portal-v2/request-submit-submit', auth: 'none', contract: 'project', documents: ['request-uploads'] },
  requestSubmissionUploaded: { method: 'GET', path: '/request-submit/{token}/uploaded', handler: 'portal-v2/request-submit-uploaded', auth: 'none', contract: 'project', documents: ['request-files', 'request-uploads'] },
  showRequestForm: { method: 'GET', path: '/request-form/{token}', handler: 'portal-v2/request-form-show', auth: 'none', contract: 'project', documents: ['request-uploads'] },
  submitRequestForm: { method: 'POST', path: '/request-form/{token}', handler: 'portal-v2/request-form-submit', auth: 'none', contract: 'project', documents: ['request-uploads'] },
  requestFormUploaded: { method: 'GET', path: '/request-form/{token}/uploaded', handler: 'portal-v2/request-form-uploaded', auth: 'none', contract: 'project', documents: ['request-files', 'request-uploads'] },
});
