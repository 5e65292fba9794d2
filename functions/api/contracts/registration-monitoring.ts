import type * as registrationMonitoring from '../routes/registration-monitoring.js';
import { json, none, pdf, type OperationContract } from './contract.js';
import { WorkerCreate } from '../schemas/registration-monitoring.js';
import { ALERT, EVIDENCE, VERIFICATION_JOB, WORKER } from './registration-monitoring-examples.js';
import * as M from './registration-monitoring-responses.js';
import { SHARED_CONTRACTS } from './shared.js';

const WORKERS = 'Workers';
const CHECKS = 'Verifications';
const ALERTS = 'Alerts';
const MONITORING = 'Monitoring settings';
const EVIDENCE_TAG = 'Evidence';
const { first_name, last_name, external_ref, email, phone, job_role } = WORKER;
const workerBody = {
  first_name,
  last_name,
  external_ref,
  email,
  phone,
  job_role,
  registration: { register: 'nmc', number: '12a9001b' },
  monitoring: { enabled: true, frequency: 'daily' },
};
const duplicate = { code: 'worker-duplicate', detail: 'Another worker has this registration number', extensions: { worker_id: 17 } };
const archived = { code: 'worker-archived', detail: 'Worker 41 is archived', extensions: { worker_id: 41 } };

/** The family's own operations on workers, checks, alerts, monitoring and evidence, and its token exchange (403 for an account without monitoring); the account's are in ./registration-monitoring-account.ts. */
export const REGISTRATION_MONITORING_CONTRACTS: Record<keyof typeof registrationMonitoring, OperationContract> & { exchangeToken: OperationContract } = {
  exchangeToken: {
    ...SHARED_CONTRACTS.exchangeToken,
    description: `${SHARED_CONTRACTS.exchangeToken.description} Only an account that includes registration monitoring gets one here: any other is 403.`,
    refusals: [{ code: 'forbidden', detail: 'This account does not include registration monitoring' }],
  },
  createWorker: {
    summary: 'Add a worker',
    description:
      'Adds a worker with their NMC, HCPC or GMC registration. The number is upper-cased and checked against its register (an NMC PIN `12A3456B`; an HCPC number with its profession prefix, which becomes `profession`; a GMC number of 7 digits). `(register, number)` and `external_ref` are unique among your workers: a second is 422 `worker-duplicate` naming the first. A monitored worker is checked at once, then on schedule; the outcome is `unverified` until then.',
    tag: WORKERS,
    request: { body: workerBody, invalid: { registration: { register: 'nmc', number: '1234567' } } },
    refusals: [duplicate],
    responses: { 201: json('The worker', M.Worker) },
  },
  listWorkers: {
    summary: 'List workers',
    description:
      'Your workers, newest first, by outcome, register, whether monitored, `external_ref`, or text (`q`) in the name, reference, e-mail or number. Archived workers are listed only with `archived=true`.',
    tag: WORKERS,
    request: { query: { outcome: 'review', register: 'nmc', monitored: 'true', q: 'adeyemi', limit: 25 }, invalid: { outcome: 'bad' } },
    responses: { 200: json('Workers, newest first', M.Worker, 'page') },
  },
  getWorker: {
    summary: 'Get a worker',
    description:
      'One worker, archived or not, with the outcome, registration status and expiry of their last completed check, their monitoring settings and the number of open alerts.',
    tag: WORKERS,
    request: { params: { id: WORKER.id } },
    responses: { 200: json('The worker', M.Worker) },
  },
  replaceWorker: {
    summary: 'Replace a worker',
    description:
      'Replaces every writable field (the body is that of `POST /workers`; what is left out takes its default). A changed registration resets the outcome to `unverified` and queues a check. An archived worker is 422 `worker-archived`.',
    tag: WORKERS,
    request: { params: { id: WORKER.id }, body: workerBody, invalid: { first_name: '' } },
    refusals: [duplicate, archived],
    responses: { 200: json('The worker as replaced', M.Worker) },
  },
  patchWorker: {
    summary: 'Change some of a worker',
    description:
      'A JSON Merge Patch (RFC 7396, `Content-Type: application/merge-patch+json`; any other type is 415) merged onto the worker as `POST /workers` would take it, then checked by the same rules: `null` clears an optional field, an object merges member by member. A changed registration resets the outcome to `unverified`.',
    tag: WORKERS,
    request: { params: { id: WORKER.id }, body: { phone: null, monitoring: { frequency: 'weekly' } }, patches: WorkerCreate },
    refusals: [
      duplicate,
      archived,
      {
        code: 'validation',
        detail: 'The request has invalid fields',
        extensions: { errors: [{ pointer: '/registration/number', detail: 'Not a GMC reference number: 7 digits (for example 1234567)' }] },
      },
    ],
    responses: { 200: json('The worker as changed', M.Worker) },
  },
  archiveWorker: {
    summary: 'Archive a worker',
    description:
      'Stops monitoring the worker and frees their registration number and `external_ref` for another worker; open alerts resolve (`worker_archived`). Verifications and evidence are kept to the end of their retention. The worker can still be read; lists show them with `archived=true`. Archiving again is 204.',
    tag: WORKERS,
    request: { params: { id: WORKER.id } },
    responses: { 204: none('Archived') },
  },
  verifyWorker: {
    summary: 'Verify a worker now',
    description:
      'Asks the register now and answers within 8 seconds: 201 with the check (`outcome` `clear`, `review` or `fail`, the reasons, the register\'s own words in `status_text`, and `changes` since the previous check), billed once (`charge`). A check under 5 minutes old is answered again, 200 and uncharged (`fresh=true` asks anyway); while another check of the worker runs, that one is answered, 200. A register that does not answer in time gives 201 with `status: "error"`, not billed; the worker keeps its outcome and a retry follows in 15 minutes. The simulated register says so on every check (`simulated: true`).',
    tag: CHECKS,
    request: { params: { id: WORKER.id }, query: { fresh: 'true' }, invalid: { fresh: 'yes' } },
    refusals: [archived],
    responses: {
      201: json('The check this call ran', M.Verification),
      200: json('A check under 5 minutes old, or the one in flight; not charged again', M.Verification),
    },
  },
  startVerificationJob: {
    summary: 'Verify workers in a batch',
    description:
      'Queues a check of each listed worker (up to 1000; or `all: true`, every worker not archived) and answers at once, 202, with the job to poll. Each check is billed like one on demand; a worker checked under 5 minutes ago is answered by that check, not billed again, and one whose check is running is `skipped`, as are archived and unknown workers. One job runs at a time per account: another is 409 `job-running` naming it. `verification_job.completed` is sent when the last check has run.',
    tag: CHECKS,
    request: { body: { worker_ids: [41, 42, 43] }, invalid: { worker_ids: [] } },
    refusals: [{ code: 'job-running', detail: 'Job 3 of this kind is still running; start another when it has finished', extensions: { job_id: 3 } }],
    responses: {
      202: json('The job, queued', M.VerificationJob, undefined, {
        example: {
          ...VERIFICATION_JOB,
          status: 'queued',
          counts: { total: 3, completed: 0, errored: 0, skipped: 0 },
          failures: [],
          started_at: null,
          finished_at: null,
        },
      }),
    },
  },
  getVerificationJob: {
    summary: 'Get a batch verification job',
    description:
      "The job's status (`queued`, `running`, then `completed`, or `completed_with_errors` when a register did not answer for some workers), its counts and its first 100 failures.",
    tag: CHECKS,
    request: { params: { id: VERIFICATION_JOB.id } },
    responses: { 200: json('The job', M.VerificationJob) },
  },
  listVerifications: {
    summary: "List a worker's verifications",
    description:
      "The worker's checks, newest first, on days `from` to `to` when given: outcome, reasons, the register's verbatim text and the field-level changes from the check before. Archived workers' checks stay to the end of their retention.",
    tag: CHECKS,
    request: { params: { id: WORKER.id }, query: { from: '2026-11-01', to: '2026-11-30', limit: 25 }, invalid: { from: '2026-13-01' } },
    responses: { 200: json('Checks, newest first', M.Verification, 'page') },
  },
  listAlerts: {
    summary: 'List alerts',
    description:
      'Alerts, newest first, by status, severity, type and worker. A worker has at most one unresolved alert of each type; a repeat of its condition bumps `occurrences`, a higher severity escalates it. Only the register resolves an alert (or archiving the worker); people acknowledge.',
    tag: ALERTS,
    request: {
      query: { status: 'open', severity: 'critical', type: 'registration.status_changed', worker_id: 41, limit: 25 },
      invalid: { severity: 'urgent' },
    },
    responses: { 200: json('Alerts, newest first', M.Alert, 'page') },
  },
  getAlert: {
    summary: 'Get an alert',
    description: 'One alert with its details (`from`, `to`), the checks that saw it, and who acknowledged it.',
    tag: ALERTS,
    request: { params: { id: ALERT.id } },
    responses: { 200: json('The alert', M.Alert) },
  },
  acknowledgeAlert: {
    summary: 'Acknowledge an alert',
    description:
      'Records that someone has seen the alert, with an optional note; it stays unresolved until the register clears the condition. Acknowledging again answers 200 and changes nothing; a resolved alert is 422 `alert-resolved`.',
    tag: ALERTS,
    request: { params: { id: ALERT.id }, body: { note: 'Ward manager told; supervised shifts only' }, invalid: { note: 42 } },
    refusals: [{ code: 'alert-resolved', detail: 'Alert 12 is resolved', extensions: { alert_id: 12 } }],
    responses: { 200: json('The alert', M.Alert) },
  },
  acknowledgeAlerts: {
    summary: 'Acknowledge alerts in bulk',
    description:
      "Up to 100 alerts, each on its own (a refusal does not stop the others): one answer per distinct id, `acknowledged`, `already_acknowledged`, `resolved` or `not_found` (another client's alert reads `not_found`), with the problem a refusal would have answered alone.",
    tag: ALERTS,
    request: { body: { alert_ids: [12, 13, 9], note: 'Reviewed at the Monday compliance meeting' }, invalid: { alert_ids: [] } },
    responses: { 200: { description: 'One answer per distinct id', item: M.BulkResults } },
  },
  getMonitoring: {
    summary: "Get a worker's monitoring settings",
    description:
      'Whether the worker is checked on schedule, how often (`daily`, or `weekly` outside the 14 days before expiry, when it is daily), any pause, and when they were last and will next be checked.',
    tag: MONITORING,
    request: { params: { id: WORKER.id } },
    responses: { 200: json('The settings', M.MonitoringSettings) },
  },
  putMonitoring: {
    summary: "Change a worker's monitoring settings",
    description:
      'Replaces `enabled`, `frequency` and `paused_until` (left out: their defaults, on, daily, no pause). Turning monitoring off stops scheduled checks; checks on demand still run. An archived worker is 422 `worker-archived`.',
    tag: MONITORING,
    request: { params: { id: WORKER.id }, body: { enabled: true, frequency: 'weekly', paused_until: '2026-12-24' }, invalid: { frequency: 'hourly' } },
    refusals: [archived],
    responses: { 200: json('The settings as changed', M.MonitoringSettings) },
  },
  bulkMonitoring: {
    summary: 'Change monitoring settings in bulk',
    description:
      "The same settings for up to 1000 workers, each on its own: one answer per distinct id, `updated`, `archived` or `not_found` (another client's worker reads `not_found`), with the problem a refusal would have answered alone.",
    tag: MONITORING,
    request: { body: { worker_ids: [41, 42, 43], settings: { enabled: true, frequency: 'weekly' } }, invalid: { worker_ids: [] } },
    responses: {
      200: {
        description: 'One answer per distinct id',
        item: M.BulkResults,
        example: {
          data: [
            { id: 41, result: 'updated' },
            {
              id: 42,
              result: 'archived',
              problem: { type: '/problems/worker-archived', title: 'Worker archived', status: 422, detail: 'Worker 42 is archived' },
            },
          ],
        },
      },
    },
  },
  listEvidence: {
    summary: 'List evidence',
    description:
      "The evidence records of completed checks, newest first, by worker and capture day: each keyed by its check, with its SHA-256 and the SHA-256 of the worker's record before it (a chain: a changed record breaks the next link). Each record is stored write-once (in the cloud, S3 Object Lock in compliance mode) until its `retention_until`: 6 years by default, as the service is configured.",
    tag: EVIDENCE_TAG,
    request: { query: { worker_id: 41, from: '2026-11-01', to: '2026-11-30', limit: 25 }, invalid: { worker_id: 'x' } },
    responses: { 200: json('Evidence records, newest first', M.Evidence, 'page') },
  },
  getEvidence: {
    summary: 'Get evidence metadata',
    description: "One evidence record's metadata: position in the worker's chain, size, capture and retention times, source, formats and hashes.",
    tag: EVIDENCE_TAG,
    request: { params: { id: EVIDENCE.id } },
    responses: { 200: json('The record', M.Evidence) },
  },
  downloadEvidence: {
    summary: 'Download evidence',
    description:
      'The record as a PDF (with both hashes, and a "SIMULATED REGISTER" banner on every page when the simulated register answered), or with `Accept: application/json` the exact canonical JSON that was hashed, with its `Repr-Digest: sha-256=:…:`. The record is re-hashed before it is served: one that no longer matches its hash is never served (500 `evidence-integrity`).',
    tag: EVIDENCE_TAG,
    request: { params: { id: EVIDENCE.id } },
    responses: { 200: pdf('The evidence as a PDF, or its JSON (Accept: application/json)') },
  },
};
