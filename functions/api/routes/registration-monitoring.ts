import { UsageQuery, AcknowledgeManyRequest, AcknowledgeRequest, AlertsQuery, EvidenceQuery, MonitoringBulkRequest, MonitoringSettingsRequest, VerificationJobRequest, VerificationsQuery, VerifyQuery, WorkerCreate, WorkerMergePatch, WorkersQuery } from '../schemas/registration-monitoring.js';
import { familyOperations } from './operation.js';

/** The registration monitoring family's own operations (design/registration-monitoring.md); handlers under functions/http/registration-monitoring. */
export const registrationMonitoring = familyOperations('registration-monitoring', {
  createWorker: { method: 'POST', path: '/workers', handler: 'registration-monitoring/workers-create', auth: 'bearer', contract: 'project', idempotent: true, body: WorkerCreate },
  listWorkers: { method: 'GET', path: '/workers', handler: 'registration-monitoring/workers-list', auth: 'bearer', contract: 'project', query: WorkersQuery },
  getWorker: { method: 'GET', path: '/workers/{id}', handler: 'registration-monitoring/workers-get', auth: 'bearer', contract: 'project' },
  replaceWorker: { method: 'PUT', path: '/workers/{id}', handler: 'registration-monitoring/workers-replace', auth: 'bearer', contract: 'project', body: WorkerCreate },
  patchWorker: { method: 'PATCH', path: '/workers/{id}', handler: 'registration-monitoring/workers-patch', auth: 'bearer', contract: 'project', body: WorkerMergePatch, contentType: 'application/merge-patch+json' },
  archiveWorker: { method: 'DELETE', path: '/workers/{id}', handler: 'registration-monitoring/workers-archive', auth: 'bearer', contract: 'project' },
  verifyWorker: { method: 'POST', path: '/workers/{id}/verifications', handler: 'registration-monitoring/verifications-create', auth: 'bearer', contract: 'project', idempotent: true, query: VerifyQuery },
  listVerifications: { method: 'GET', path: '/workers/{id}/verifications', handler: 'registration-monitoring/verifications-list', auth: 'bearer', contract: 'project', query: VerificationsQuery },
  startVerificationJob: { method: 'POST', path: '/verification-jobs', handler: 'registration-monitoring/verification-jobs-create', auth: 'bearer', contract: 'project', idempotent: true, body: VerificationJobRequest },
  getVerificationJob: { method: 'GET', path: '/verification-jobs/{id}', handler: 'registration-monitoring/verification-jobs-get', auth: 'bearer', contract: 'project' },
  listAlerts: { method: 'GET', path: '/alerts', handler: 'registration-monitoring/alerts-list', auth: 'bearer', contract: 'project', query: AlertsQuery },
  // A static segment: listed before `{id}` so no router could take it for an id.
  acknowledgeAlerts: { method: 'POST', path: '/alerts/acknowledge', handler: 'registration-monitoring/alerts-acknowledge-many', auth: 'bearer', contract: 'project', body: AcknowledgeManyRequest },
  getAlert: { method: 'GET', path: '/alerts/{id}', handler: 'registration-monitoring/alerts-get', auth: 'bearer', contract: 'project' },
  acknowledgeAlert: { method: 'POST', path: '/alerts/{id}/acknowledge', handler: 'registration-monitoring/alerts-acknowledge', auth: 'bearer', contract: 'project', body: AcknowledgeRequest },
  getMonitoring: { method: 'GET', path: '/workers/{id}/monitoring', handler: 'registration-monitoring/monitoring-get', auth: 'bearer', contract: 'project' },
  putMonitoring: { method: 'PUT', path: '/workers/{id}/monitoring', handler: 'registration-monitoring/monitoring-put', auth: 'bearer', contract: 'project', body: MonitoringSettingsRequest },
  bulkMonitoring: { method: 'POST', path: '/monitoring/bulk', handler: 'registration-monitoring/monitoring-bulk', auth: 'bearer', contract: 'project', body: MonitoringBulkRequest },
  listEvidence: { method: 'GET', path: '/evidence', handler: 'registration-monitoring/evidence-list', auth: 'bearer', contract: 'project', query: EvidenceQuery },
  getEvidence: { method: 'GET', path: '/evidence/{id}', handler: 'registration-monitoring/evidence-get', auth: 'bearer', contract: 'project' },
  downloadEvidence: { method: 'GET', path: '/evidence/{id}/download', handler: 'registration-monitoring/evidence-download', auth: 'bearer', contract: 'project' },
  getUsage: { method: 'GET', path: '/billing/usage', handler: 'registration-monitoring/billing-usage', auth: 'bearer', contract: 'project', query: UsageQuery },
});
