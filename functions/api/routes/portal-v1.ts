import { PageQuery } from '../schemas/fields.js';
import { V1Subscribe } from '../schemas/portal-v1.js';
import { CandidateCreate } from '../schemas/portal-v2.js';
import { CertificateRequestCreate, GroupRequestsQuery, OccupationalHealthRequestCreate, TrainingRequestCreate } from '../schemas/portal-v2-groups.js';
import { familyOperations } from './operation.js';

/**
 * The deprecated portal API version 1 (design portal-and-facades section 2),
 * over portal v2 tokens; bodies and objects are portal v2's (one
 * serializer). `successor` is each operation's replacement in portal v2.
 */
const bearer = { auth: 'bearer', contract: 'spec' } as const;
export const portalV1 = familyOperations('portal-v1', {
  listCandidates: { method: 'GET', path: '/candidates', handler: 'portal-v1/candidates-list', ...bearer, query: PageQuery, successor: '/candidates' },
  createCandidate: { method: 'POST', path: '/candidates', handler: 'portal-v1/candidates-create', ...bearer, idempotent: true, body: CandidateCreate, successor: '/candidates' },
  getCandidate: { method: 'GET', path: '/candidates/{id}', handler: 'portal-v1/candidates-get', ...bearer, successor: '/candidates' },
  listTrainingRequests: { method: 'GET', path: '/training-requests', handler: 'portal-v1/training-requests-list', ...bearer, query: GroupRequestsQuery, successor: '/training-requests' },
  createTrainingRequest: { method: 'POST', path: '/training-requests', handler: 'portal-v1/training-requests-create', ...bearer, idempotent: true, body: TrainingRequestCreate, successor: '/training-requests' },
  getTrainingRequest: { method: 'GET', path: '/training-requests/{id}', handler: 'portal-v1/training-requests-get', ...bearer, successor: '/training-requests' },
  listOccupationalHealthRequests: {
    method: 'GET',
    path: '/occupational-health-requests',
    handler: 'portal-v1/occupational-health-requests-list',
    ...bearer,
    query: GroupRequestsQuery,
    successor: '/occupational-health-requests',
  },
  createOccupationalHealthRequest: {
    method: 'POST',
    path: '/occupational-health-requests',
    handler: 'portal-v1/occupational-health-requests-create',
    ...bearer,
    idempotent: true,
    body: OccupationalHealthRequestCreate,
    successor: '/occupational-health-requests',
  },
  getOccupationalHealthRequest: { method: 'GET', path: '/occupational-health-requests/{id}', handler: 'portal-v1/occupational-health-requests-get', ...bearer, successor: '/occupational-health-requests', actingUser: 'health:read' },
  listCertificateRequests: { method: 'GET', path: '/certificate-requests', handler: 'portal-v1/certificate-requests-list', ...bearer, query: GroupRequestsQuery, successor: '/certificate-requests' },
  createCertificateRequest: { method: 'POST', path: '/certificate-requests', handler: 'portal-v1/certificate-requests-create', ...bearer, idempotent: true, body: CertificateRequestCreate, successor: '/certificate-requests' },
  getCertificateRequest: { method: 'GET', path: '/certificate-requests/{id}', handler: 'portal-v1/certificate-requests-get', ...bearer, successor: '/certificate-requests' },
  subscribeWebhook: { method: 'POST', path: '/webhooks', handler: 'portal-v1/webhooks-subscribe', ...bearer, idempotent: true, body: V1Subscribe, successor: '/webhooks' },
  unsubscribeWebhook: { method: 'DELETE', path: '/webhooks/{id}', handler: 'portal-v1/webhooks-unsubscribe', ...bearer, successor: '/webhooks' },
});
