import type * as v from 'valibot';
import type { Example } from './examples.js';
import * as M from './registration-monitoring-responses.js';

/** Example resources of the registration monitoring family, for its OpenAPI document. */

export const WORKER = {
  id: 41,
  first_name: 'Grace',
  last_name: 'Adeyemi',
  external_ref: 'EMP-0193',
  email: 'grace.adeyemi@example.org',
  phone: '+447700900123',
  job_role: 'Registered Nurse',
  registration: { register: 'nmc', number: '12A9001B', profession: null },
  monitoring: {
    enabled: true,
    frequency: 'daily',
    paused_until: null,
    next_check_at: '2026-11-21T09:17:00+00:00',
    last_checked_at: '2026-11-20T09:17:04+00:00',
  },
  outcome: 'clear',
  registration_status: 'registered',
  expires_on: '2028-03-31',
  open_alerts: 0,
  archived_at: null,
  created_at: '2026-11-02T14:12:09+00:00',
  updated_at: '2026-11-20T09:17:04+00:00',
};

export const VERIFICATION = {
  id: 907,
  worker_id: 41,
  job_id: null,
  import_id: null,
  evidence_id: null,
  requested_by: null,
  trigger: 'manual',
  status: 'completed',
  checked_at: '2026-11-20T09:17:04+00:00',
  simulated: true,
  billable: true,
  charge: { amount: 50, currency: 'GBP' },
  source: { adapter: 'simulated-register', adapter_version: '1.0.0', mode: 'simulated' },
  result: {
    found: true,
    name_on_register: 'Grace Adeyemi',
    name_match: 'exact',
    registration_status: 'registered',
    status_text: 'Registered (effective)',
    register_entry: 'Nursing and Midwifery Council register: 12A9005B (SIMULATED)',
    expires_on: '2029-11-19',
    licence_to_practise: null,
    annotations: [
      {
        type: 'conditions_of_practice',
        from: '2026-11-20',
        to: null,
        summary: 'Conditions of practice order: supervised practice, no unsupervised medicines administration',
      },
    ],
    recorded_qualifications: ['RN1: Registered Nurse - Adult'],
  },
  outcome: 'review',
  reasons: [{ code: 'conditions_of_practice', detail: 'Conditions of practice order: supervised practice, no unsupervised medicines administration' }],
  changes: [
    {
      field: 'annotations',
      from: [],
      to: [
        {
          type: 'conditions_of_practice',
          from: '2026-11-20',
          to: null,
          summary: 'Conditions of practice order: supervised practice, no unsupervised medicines administration',
        },
      ],
    },
  ],
  error: null,
};

export const ALERT = {
  id: 12,
  worker_id: 41,
  type: 'registration.restricted',
  severity: 'high',
  status: 'acknowledged',
  details: { from: null, to: ['conditions_of_practice'] },
  first_seen_at: '2026-11-20T09:17:04+00:00',
  last_seen_at: '2026-11-21T09:12:44+00:00',
  occurrences: 2,
  verification_ids: [907, 951],
  acknowledged_at: '2026-11-21T10:02:13+00:00',
  acknowledged_by: null,
  note: 'Ward manager told; supervised shifts only',
  resolved_at: null,
  resolution: null,
};

export const EVIDENCE = {
  id: 907,
  worker_id: 41,
  verification_id: 907,
  seq: 3,
  size_bytes: 1874,
  captured_at: '2026-11-20T09:17:04+00:00',
  retention_until: '2032-11-20T09:17:04+00:00',
  simulated: true,
  source: { adapter: 'simulated-register', adapter_version: '1.0.0', mode: 'simulated' },
  formats: ['pdf', 'json'],
  sha256: '6f1ed002ab5595859014ebf0951522d9c2a7c4d0e4b1f7b1e3f0a8d7c6b5a493',
  prev_sha256: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
};

export const VERIFICATION_JOB = {
  id: 3,
  status: 'completed_with_errors',
  counts: { total: 12, completed: 10, errored: 1, skipped: 1 },
  failures: [{ task: 46, detail: 'Worker 46: the register did not answer (timeout)' }],
  requested_by: 2,
  created_at: '2026-11-21T09:30:00+00:00',
  started_at: '2026-11-21T09:30:01+00:00',
  finished_at: '2026-11-21T09:30:19+00:00',
};

const GBP = (amount: number) => ({ amount, currency: 'GBP' });
export const USAGE = {
  period: '2026-11',
  unit_prices: [
    { register: 'nmc', price: GBP(50) },
    { register: 'hcpc', price: GBP(50) },
    { register: 'gmc', price: GBP(75) },
  ],
  checks: {
    billable: 41,
    not_billable: 2,
    by_register: { nmc: 24, hcpc: 13, gmc: 4 },
    by_trigger: { manual: 5, scheduled: 30, registration_changed: 4, batch: 2, import: 0, retry: 0 },
  },
  amount: GBP(2150),
  workers: { monitored: 12, total: 13 },
  daily: [
    { date: '2026-11-01', billable: 0 },
    { date: '2026-11-02', billable: 12 },
    { date: '2026-11-03', billable: 12 },
  ],
  ledger_entry_id: null,
};

export const TEAM_ROLE = {
  id: 'custom-2',
  name: 'Night coordinator',
  permissions: ['workers:read', 'alerts:read', 'alerts:acknowledge'],
  built_in: false,
  user_count: 1,
};
export const TEAM_USER = {
  id: 3,
  name: 'Priya Shah',
  email: 'priya.shah@northwind.example',
  role_id: 'compliance_manager',
  status: 'active',
  alert_min_severity: 'medium',
  created_at: '2026-11-20T09:00:00+00:00',
  updated_at: '2026-11-20T09:00:00+00:00',
};

export const IMPORT = {
  id: 8,
  status: 'completed_with_errors',
  mode: 'upsert',
  dry_run: false,
  file: { name: 'workers-november.csv', size_bytes: 1523, sha256: '9b74c9897bac770ffc029102a200c5de2f5c6c2c8f3ea0c2e4e9bb46a6b0d7a1' },
  counts: { rows_total: 12, created: 9, updated: 1, unchanged: 0, failed: 2 },
  warnings: ['Column "notes" is not imported'],
  errors: {
    data: [
      {
        row: 4,
        column: 'registration_number',
        value: '12A345',
        code: 'validation',
        detail: 'Not an NMC PIN: two digits, a letter, four digits, a letter (for example 12A3456B)',
        pointer: '/registration/number',
      },
      { row: 9, column: 'external_ref', value: 'EMP-0193', code: 'duplicate-in-file', detail: 'The same worker as line 3', pointer: '/external_ref' },
    ],
    next_cursor: null,
  },
  uploaded_by: 2,
  created_at: '2026-11-21T09:40:00+00:00',
  finished_at: '2026-11-21T09:40:06+00:00',
};

export const MONITORING_EXAMPLES: [v.GenericSchema, Example][] = [
  [M.Import, IMPORT],
  [M.TeamRole, TEAM_ROLE],
  [M.TeamUser, TEAM_USER],
  [M.UsageSummary, USAGE],
  [M.VerificationJob, VERIFICATION_JOB],
  [M.Worker, WORKER],
  [M.Verification, VERIFICATION],
  [M.Alert, ALERT],
  [M.MonitoringSettings, WORKER.monitoring],
  [M.Evidence, EVIDENCE],
  [
    M.BulkResults,
    {
      data: [
        { id: 12, result: 'acknowledged' },
        { id: 13, result: 'already_acknowledged' },
        { id: 9, result: 'resolved', problem: { type: '/problems/alert-resolved', title: 'Alert resolved', status: 422, detail: 'Alert 9 is resolved' } },
      ],
    },
  ],
];
