import type { registrationMonitoring } from '../routes/registration-monitoring.js';
import { json, none, type OperationContract } from './contract.js';
import { WORKER } from './registration-monitoring-examples.js';
import * as M from './registration-monitoring-responses.js';
import { SHARED_CONTRACTS } from './shared.js';

const WORKERS = 'Workers';
const { first_name, last_name, external_ref, email, phone, job_role } = WORKER;
const workerBody = { first_name, last_name, external_ref, email, phone, job_role, registration: { register: 'nmc', number: '12a9001b' }, monitoring: { enabled: true, frequency: 'daily' } };
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
    description: 'Your workers, newest first, by outcome, register, whether monitored, `external_ref`, or text (`q`) in the name, reference, e-mail or number. Archived workers are listed only with `archived=true`.',
    tag: WORKERS,
    request: { query: { outcome: 'review', register: 'nmc', monitored: 'true', q: 'adeyemi', limit: 25 }, invalid: { outcome: 'bad' } },
    responses: { 200: json('Workers, newest first', M.Worker, 'page') },
  },
  getWorker: {
    summary: 'Get a worker',
    description: 'One worker, archived or not, with the outcome, registration status and expiry of their last completed check, their monitoring settings and the number of open alerts.',
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
    request: { params: { id: WORKER.id }, body: { phone: null, monitoring: { frequency: 'weekly' } } },
    refusals: [duplicate, archived, { code: 'validation', detail: 'The request has invalid fields', extensions: { errors: [{ pointer: '/registration/number', detail: 'Not a GMC reference number: 7 digits (for example 1234567)' }] } }],
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
};
