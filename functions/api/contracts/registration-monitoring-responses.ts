import { REGISTRATION_STATUSES } from '../../core/registration-monitoring/registration-statuses.js';
import * as v from 'valibot';
import { int, nullable, str, timestamp } from './response-fields.js';

/** Response shapes of the registration monitoring family; strict, as in responses.ts. */

export const Worker = v.strictObject({
  id: int,
  first_name: str,
  last_name: str,
  external_ref: nullable(str),
  email: nullable(str),
  phone: nullable(str),
  job_role: nullable(str),
  registration: v.strictObject({ register: v.picklist(['nmc', 'hcpc', 'gmc']), number: str, profession: nullable(str) }),
  monitoring: v.strictObject({
    enabled: v.boolean(),
    frequency: v.picklist(['daily', 'weekly']),
    paused_until: nullable(str),
    next_check_at: nullable(timestamp),
    last_checked_at: nullable(timestamp),
  }),
  outcome: v.picklist(['unverified', 'clear', 'review', 'fail']),
  registration_status: nullable(v.picklist(REGISTRATION_STATUSES)),
  expires_on: nullable(str),
  open_alerts: int,
  archived_at: nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
});

const money = v.strictObject({ amount: int, currency: str });
const annotation = v.strictObject({ type: str, from: str, to: nullable(str), summary: str });
export const Verification = v.strictObject({
  id: int,
  worker_id: int,
  job_id: nullable(int),
  import_id: nullable(int),
  evidence_id: nullable(int),
  requested_by: nullable(int),
  trigger: v.picklist(['manual', 'scheduled', 'registration_changed', 'batch', 'import', 'retry']),
  status: v.picklist(['completed', 'error']),
  checked_at: timestamp,
  simulated: v.boolean(),
  billable: v.boolean(),
  charge: nullable(money),
  source: v.strictObject({ adapter: str, adapter_version: str, mode: v.picklist(['simulated', 'live']) }),
  result: nullable(
    v.strictObject({
      found: v.boolean(),
      name_on_register: v.optional(str),
      name_match: nullable(v.picklist(['exact', 'partial', 'mismatch'])),
      registration_status: v.optional(v.picklist(REGISTRATION_STATUSES)),
      status_text: v.optional(str),
      register_entry: v.optional(str),
      expires_on: v.optional(nullable(str)),
      licence_to_practise: v.optional(nullable(v.boolean())),
      annotations: v.optional(v.array(annotation)),
      recorded_qualifications: v.optional(v.array(str)),
    }),
  ),
  outcome: nullable(v.picklist(['clear', 'review', 'fail'])),
  reasons: v.array(v.strictObject({ code: str, detail: str })),
  changes: v.array(v.strictObject({ field: str, from: v.unknown(), to: v.unknown() })),
  error: nullable(v.strictObject({ code: v.picklist(['timeout', 'unavailable', 'rate_limited']), detail: str })),
});

export const Alert = v.strictObject({
  id: int,
  worker_id: int,
  type: str,
  severity: v.picklist(['low', 'medium', 'high', 'critical']),
  status: v.picklist(['open', 'acknowledged', 'resolved']),
  details: v.strictObject({ from: v.unknown(), to: v.unknown() }),
  first_seen_at: timestamp,
  last_seen_at: timestamp,
  occurrences: int,
  verification_ids: v.array(int),
  acknowledged_at: nullable(timestamp),
  acknowledged_by: nullable(int),
  note: nullable(str),
  resolved_at: nullable(timestamp),
  resolution: nullable(v.picklist(['condition_cleared', 'worker_archived'])),
});

/** A bulk operation's answer: one entry per distinct id. */
export const BulkResults = v.strictObject({
  data: v.array(v.strictObject({ id: int, result: str, problem: v.optional(v.looseObject({ type: str, title: str, status: int, detail: str })) })),
});

export const MonitoringSettings = v.strictObject({
  enabled: v.boolean(),
  frequency: v.picklist(['daily', 'weekly']),
  paused_until: nullable(str),
  next_check_at: nullable(timestamp),
  last_checked_at: nullable(timestamp),
});

export const Evidence = v.strictObject({
  id: int,
  worker_id: int,
  verification_id: int,
  seq: int,
  size_bytes: int,
  captured_at: timestamp,
  retention_until: timestamp,
  simulated: v.boolean(),
  source: v.strictObject({ adapter: str, adapter_version: str, mode: v.picklist(['simulated', 'live']) }),
  formats: v.array(v.picklist(['pdf', 'json'])),
  sha256: str,
  prev_sha256: nullable(str),
});

const jobCounts = v.strictObject({ total: int, completed: int, errored: int, skipped: int });
export const VerificationJob = v.strictObject({
  id: int,
  status: v.picklist(['queued', 'running', 'completed', 'completed_with_errors', 'failed']),
  counts: jobCounts,
  failures: v.array(v.strictObject({ task: v.unknown(), detail: str })),
  requested_by: nullable(int),
  created_at: timestamp,
  started_at: nullable(timestamp),
  finished_at: nullable(timestamp),
});

const byName = v.record(str, int);
export const UsageSummary = v.strictObject({
  period: str,
  unit_prices: v.array(v.strictObject({ register: v.picklist(['nmc', 'hcpc', 'gmc']), price: money })),
  checks: v.strictObject({ billable: int, not_billable: int, by_register: byName, by_trigger: byName }),
  amount: money,
  workers: v.strictObject({ monitored: int, total: int }),
  daily: v.array(v.strictObject({ date: str, billable: int })),
  ledger_entry_id: nullable(str),
});

export const TeamRole = v.strictObject({ id: str, name: str, permissions: v.array(str), built_in: v.boolean(), user_count: int });
export const TeamUser = v.strictObject({
  id: int,
  name: str,
  email: str,
  role_id: str,
  status: v.picklist(['active', 'disabled']),
  alert_min_severity: v.picklist(['low', 'medium', 'high', 'critical', 'none']),
  created_at: timestamp,
  updated_at: timestamp,
});

const rowError = v.strictObject({ row: int, column: str, value: nullable(str), code: str, detail: str, pointer: str });
export const Import = v.strictObject({
  id: int,
  status: v.picklist(['queued', 'validating', 'processing', 'completed', 'completed_with_errors', 'validated', 'failed']),
  mode: v.picklist(['upsert', 'create_only']),
  dry_run: v.boolean(),
  file: v.strictObject({ name: nullable(str), size_bytes: int, sha256: str }),
  counts: v.strictObject({ rows_total: int, created: int, updated: int, unchanged: int, failed: int }),
  warnings: v.array(str),
  errors: v.optional(v.strictObject({ data: v.array(rowError), next_cursor: nullable(str) })),
  uploaded_by: nullable(int),
  created_at: timestamp,
  finished_at: nullable(timestamp),
});
