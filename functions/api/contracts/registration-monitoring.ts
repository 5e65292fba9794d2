import type * as registrationMonitoring from '../routes/registration-monitoring.js';
import { json, none, pdf, type OperationContract } from './contract.js';
import { WorkerCreate } from '../schemas/registration-monitoring.js';
import { ALERT, EVIDENCE, IMPORT, TEAM_ROLE, TEAM_USER, USAGE, VERIFICATION_JOB, WORKER } from './registration-monitoring-examples.js';
import * as M from './registration-monitoring-responses.js';
import { SHARED_CONTRACTS } from './shared.js';

const WORKERS = 'Workers';
const CHECKS = 'Verifications';
const ALERTS = 'Alerts';
const MONITORING = 'Monitoring settings';
const EVIDENCE_TAG = 'Evidence';
const BILLING = 'Usage and billing';
const TEAM = 'Team';
const IMPORTS = 'Imports';
const { name: userName, email: userEmail, role_id, alert_min_severity } = TEAM_USER;
const userBody = { name: userName, email: userEmail, role_id, status: 'active', alert_min_severity };
const lastOwner = { code: 'last-owner', detail: "The account's last active owner cannot be removed, disabled or demoted: make another user an owner first" };
const ownerRequired = { code: 'owner-required', detail: 'Only an owner may grant, change or remove an owner' };
const builtIn = { code: 'role-built-in', detail: 'The built-in role viewer cannot be changed or deleted' };
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

/** The family's own operations, and its token exchange (403 for an account without monitoring). */
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
  getUsage: {
    summary: "Get a month's usage and charges",
    description:
      "The month's checks (service time zone): billable ones (each completed check that was not a reuse, at its register's price, frozen when it ran) and not billable ones (register errors), by register, by trigger and by day, what they come to, and how many workers are monitored now. Usage is postpaid: on the 1st at 02:00 the month before goes to the ledger as one `monitoring_usage` entry, named here by `ledger_entry_id`.",
    tag: BILLING,
    request: { query: { period: USAGE.period }, invalid: { period: '2026-13' } },
    responses: { 200: json("The month's usage", M.UsageSummary) },
  },
  listTeamRoles: {
    summary: 'List team roles',
    description:
      'The built-in roles (`owner`, `admin`, `compliance_manager`, `viewer`, `billing`; read-only) and your own, each with its permissions from the fixed vocabulary and how many users hold it.',
    tag: TEAM,
    responses: { 200: json('Every role', M.TeamRole, 'page') },
  },
  createTeamRole: {
    summary: 'Add a custom role',
    description:
      'A role of your own over the fixed permissions: `workers:read`, `workers:write`, `verifications:run`, `alerts:read`, `alerts:acknowledge`, `evidence:read`, `imports:write`, `billing:read`, `team:manage`, `webhooks:manage`.',
    tag: TEAM,
    request: { body: { name: TEAM_ROLE.name, permissions: TEAM_ROLE.permissions }, invalid: { permissions: ['everything'] } },
    responses: { 201: json('The role', M.TeamRole, undefined, { example: { ...TEAM_ROLE, user_count: 0 } }) },
  },
  getTeamRole: {
    summary: 'Get a team role',
    description: 'A built-in role by its name, or a custom role by its id.',
    tag: TEAM,
    request: { params: { roleId: TEAM_ROLE.id } },
    responses: { 200: json('The role', M.TeamRole) },
  },
  replaceTeamRole: {
    summary: 'Change a custom role',
    description: "Replaces a custom role's name and permissions; its users hold the new permissions at once. A built-in role is 422 `role-built-in`.",
    tag: TEAM,
    request: { params: { roleId: TEAM_ROLE.id }, body: { name: TEAM_ROLE.name, permissions: ['workers:read', 'alerts:read'] }, invalid: { name: '' } },
    refusals: [builtIn],
    responses: { 200: json('The role as changed', M.TeamRole) },
  },
  deleteTeamRole: {
    summary: 'Delete a custom role',
    description: 'Only a role nobody holds: one with users is 422 `role-in-use`; a built-in role is 422 `role-built-in`.',
    tag: TEAM,
    request: { params: { roleId: TEAM_ROLE.id } },
    refusals: [builtIn, { code: 'role-in-use', detail: 'Role custom-2 still has 1 users: give them another role first' }],
    responses: { 204: none('Deleted') },
  },
  listTeamUsers: {
    summary: 'List team users',
    description: 'The people of your account: their role, whether active, and the least severe alert they are e-mailed about (`none`: no alert e-mails).',
    tag: TEAM,
    responses: { 200: json('Every team user', M.TeamUser, 'page') },
  },
  createTeamUser: {
    summary: 'Add a team user',
    description:
      'A person of your account, for attribution (`requested_by`, `acknowledged_by`, `uploaded_by` when they act through `Acting-User`) and alert e-mails: an active user whose role reads alerts gets one per alert created or escalated at `alert_min_severity` (default `high`) or above. One user per e-mail address (`team-user-duplicate`). Only an owner, or the account without `Acting-User`, makes an owner (`owner-required`).',
    tag: TEAM,
    request: { body: userBody, invalid: { email: 'not-an-address' } },
    refusals: [{ code: 'team-user-duplicate', detail: 'A team user has this e-mail address' }, ownerRequired],
    responses: { 201: json('The user', M.TeamUser) },
  },
  getTeamUser: {
    summary: 'Get a team user',
    description: 'One team user.',
    tag: TEAM,
    request: { params: { id: TEAM_USER.id } },
    responses: { 200: json('The user', M.TeamUser) },
  },
  replaceTeamUser: {
    summary: 'Change a team user',
    description:
      'Replaces the name, e-mail, role, status and alert threshold. The account always keeps an active owner: disabling or demoting the last one is 422 `last-owner`, even when two requests try at once. Only an owner changes an owner.',
    tag: TEAM,
    request: { params: { id: TEAM_USER.id }, body: { ...userBody, alert_min_severity: 'critical' }, invalid: { role_id: 'Not A Role' } },
    refusals: [lastOwner, ownerRequired],
    responses: { 200: json('The user as changed', M.TeamUser) },
  },
  deleteTeamUser: {
    summary: 'Remove a team user',
    description:
      'Removes the person from the account (what they did keeps their id). The last active owner cannot be removed (`last-owner`); only an owner removes an owner.',
    tag: TEAM,
    request: { params: { id: TEAM_USER.id } },
    refusals: [lastOwner, ownerRequired],
    responses: { 204: none('Removed') },
  },
  listImports: {
    summary: 'List imports',
    description: "Your CSV imports and dry runs, newest first, with their counts (each import's row errors are on `GET /imports/{id}`).",
    tag: IMPORTS,
    request: { query: { limit: 10 }, invalid: { limit: '0' } },
    responses: { 200: json('Imports, newest first', M.Import, 'page') },
  },
  startImport: {
    summary: 'Import workers from a CSV file',
    description:
      'A UTF-8 CSV file of up to 5 MiB and 10,000 rows, as the body (`text/csv`) or as the multipart part `file`; over 5 MiB is 413. Columns, in any case and order: `first_name`, `last_name`, `register`, `registration_number` (required), `external_ref`, `email`, `phone`, `job_role`, `profession`, `monitoring_enabled`, `frequency`; others are reported in `warnings`. A file without a required column, or with more rows, is 422 `import-invalid-file`. Every row is checked now as the body of `POST /workers` would be, so its errors carry the same `code`, `pointer` and `detail` (plus `row`, the file line, and `column`); a row repeating an earlier one is `duplicate-in-file`. Rows match an existing worker by `external_ref`, else by registration: `upsert` (default) replaces it, `create_only` fails the row. With `dry_run=true` nothing is written and the import ends `validated` with what would happen; otherwise it is queued (202) and each row commits on its own; poll `GET /imports/{id}`. One import runs at a time per account; up to five more wait their turn (`queued`), each starting when the one before it ends, and a further one is 422 `import-queue-full`.',
    tag: IMPORTS,
    request: {
      query: { mode: 'upsert', dry_run: 'false' },
      body: 'first_name,last_name,register,registration_number,external_ref,email\nGrace,Adeyemi,nmc,12A9001B,EMP-0193,grace.adeyemi@example.org\nTom,Okoro,hcpc,PA9005,EMP-0194,\n',
      invalid: { mode: 'replace' },
    },
    refusals: [
      {
        code: 'import-invalid-file',
        detail:
          'The header lacks registration_number (columns: first_name, last_name, register, registration_number, external_ref, email, phone, job_role, profession, monitoring_enabled, frequency, in any case and order)',
      },
      {
        code: 'import-queue-full',
        detail: '5 imports are already waiting behind the running one; upload this file when one has finished',
        extensions: { queued: 5 },
      },
    ],
    responses: {
      202: json('The import, checked and queued (or validated, for a dry run)', M.Import, undefined, {
        example: { ...IMPORT, status: 'queued', counts: { ...IMPORT.counts, created: 0, updated: 0 }, errors: undefined, finished_at: null },
      }),
    },
  },
  getImport: {
    summary: 'Get an import',
    description:
      "The import's status (`queued`, `processing`, then `completed` or `completed_with_errors`; a dry run is `validated`), its counts, and its row errors in file order, 100 to a page (`errors_cursor`: the previous page's `errors.next_cursor`).",
    tag: IMPORTS,
    request: { params: { id: IMPORT.id }, query: { errors_cursor: 'eyJ2IjoxfQ' }, invalid: { errors_cursor: 'x'.repeat(600) } },
    responses: { 200: json('The import', M.Import) },
  },
};
