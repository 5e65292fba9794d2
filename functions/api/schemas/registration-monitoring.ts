import * as v from 'valibot';
import {
  DEFAULT_MONITORING,
  isRegistrationNumber,
  normaliseNumber,
  NUMBER_FORMATS,
  professionOf,
  REGISTERS,
  type Register,
} from '../../core/registration-monitoring/registers.js';
import { ALERT_TYPES, SEVERITIES } from '../../core/registration-monitoring/outcome.js';
import { PERMISSIONS } from '../../core/access/roles.js';
import { calendarDate, email, idFromString, listQuery, name, notes, phone, positiveId, oneOf, built } from './fields.js';

/**
 * Request schemas of the registration monitoring family. The CSV import
 * parses each row with `WorkerCreate` too, so a row's errors are exactly what
 * `POST /workers` answers for the same data.
 */

const flag = /* @__PURE__ */ built(() =>
  v.pipe(
    v.picklist(['true', 'false'], 'true or false'),
    v.transform((s) => s === 'true'),
  ),
);
const OUTCOMES = ['unverified', 'clear', 'review', 'fail'] as const;
const FREQUENCIES = ['daily', 'weekly'] as const;

/** `{register, number, profession?}`: the number upper-cased and checked against its register; an HCPC profession is its prefix. */
export const Registration = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      register: v.pipe(oneOf(REGISTERS), v.description('The register: `nmc`, `hcpc` or `gmc`')),
      number: v.pipe(
        v.string('Required, as a string'),
        v.maxLength(20, 'At most 20 characters'),
        v.transform(normaliseNumber),
        v.minLength(1, 'Required'),
        v.description('The registration number; spaces are removed and letters upper-cased'),
      ),
      profession: v.optional(
        v.pipe(
          v.string('Text'),
          v.maxLength(3, 'At most 3 characters'),
          v.toUpperCase(),
          v.description('HCPC only: the profession prefix (inferred from the number when left out)'),
        ),
      ),
    }),
    v.forward(
      v.check(
        (r) => isRegistrationNumber(r.register, r.number),
        (issue) => `Not ${NUMBER_FORMATS[(issue.input as { register: Register }).register]}`,
      ),
      ['number'],
    ),
    v.forward(
      v.check(
        (r) => r.profession === undefined || r.profession === professionOf(r.register, r.number),
        'Must be the profession prefix of the number (HCPC only)',
      ),
      ['profession'],
    ),
    v.transform((r) => ({ register: r.register, number: r.number, profession: professionOf(r.register, r.number) })),
  ),
);

export const MonitoringSettingsInput = /* @__PURE__ */ built(() =>
  v.object({
    enabled: v.optional(v.pipe(v.boolean('true or false'), v.description('Checked on schedule (default true)')), DEFAULT_MONITORING.enabled),
    frequency: v.optional(
      v.pipe(v.picklist(FREQUENCIES, 'daily or weekly'), v.description('How often outside the expiry window (default daily); daily within 14 days of expiry')),
      DEFAULT_MONITORING.frequency,
    ),
    paused_until: v.optional(v.nullable(v.pipe(calendarDate, v.description('No scheduled check before this day (YYYY-MM-DD)'))), null),
  }),
);

const optionalText = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

/** `POST /workers`, `PUT /workers/{id}`, a merged `PATCH`, and every import row. */
export const WorkerCreate = /* @__PURE__ */ built(() =>
  v.object({
    first_name: name(),
    last_name: name(),
    external_ref: optionalText(v.pipe(name(100), v.description('Your own reference for the worker; unique among your workers'))),
    email: optionalText(email),
    phone: optionalText(phone),
    job_role: optionalText(name()),
    registration: Registration,
    monitoring: v.optional(MonitoringSettingsInput, {}),
  }),
);

/** A JSON Merge Patch (RFC 7396) document: an object; `null` removes a field. Merged onto the worker, then checked as `WorkerCreate`. */
export const WorkerMergePatch = /* @__PURE__ */ built(() =>
  v.pipe(
    // An array would pass as a record of its indexes: refused first.
    v.custom<Record<string, unknown>>((p) => typeof p === 'object' && p !== null && !Array.isArray(p), 'A JSON object'),
    v.metadata({ type: 'object' }),
    v.description('Fields to change; null removes an optional field'),
  ),
);

export const WorkersQuery = /* @__PURE__ */ built(() =>
  v.object({
    outcome: v.optional(v.pipe(oneOf(OUTCOMES), v.description('Only workers with this outcome'))),
    register: v.optional(v.pipe(oneOf(REGISTERS), v.description('Only workers on this register'))),
    monitored: v.optional(v.pipe(flag, v.description('`true`: only workers checked on schedule; `false`: only those not'))),
    external_ref: v.optional(v.pipe(v.string(), v.maxLength(100, 'At most 100 characters'), v.description('Only the worker with this external_ref'))),
    q: v.optional(
      v.pipe(v.string(), v.trim(), v.maxLength(100, 'At most 100 characters'), v.description('Text in the name, external_ref, e-mail or registration number')),
    ),
    archived: v.optional(v.pipe(flag, v.description('`true`: archived workers only (they are left out otherwise)'))),
    ...listQuery,
  }),
);

const dateRange = <T extends { from?: string; to?: string }>(q: T) => !q.from || !q.to || q.from <= q.to;

export const VerifyQuery = /* @__PURE__ */ built(() =>
  v.object({
    fresh: v.optional(v.pipe(flag, v.description('`true`: ask the register even if a check under 5 minutes old exists'))),
  }),
);

export const VerificationsQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      from: v.optional(v.pipe(calendarDate, v.description('Checks on or after this day (YYYY-MM-DD)'))),
      to: v.optional(v.pipe(calendarDate, v.description('Checks on or before this day (YYYY-MM-DD)'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

const ALERT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export const AlertsQuery = /* @__PURE__ */ built(() =>
  v.object({
    status: v.optional(v.pipe(oneOf(ALERT_STATUSES), v.description('Only alerts in this status'))),
    severity: v.optional(v.pipe(oneOf(SEVERITIES), v.description('Only alerts of this severity'))),
    type: v.optional(v.pipe(oneOf(ALERT_TYPES), v.description('Only alerts of this type'))),
    worker_id: v.optional(v.pipe(idFromString, v.description('Only alerts of this worker'))),
    ...listQuery,
  }),
);

const note = /* @__PURE__ */ built(() => v.optional(v.pipe(notes(2000), v.description('Why, or what was done; kept on the alert'))));
/** The body may be left out: `{}`. */
export const AcknowledgeRequest = /* @__PURE__ */ built(() => v.optional(v.object({ note }), {}));
export const AcknowledgeManyRequest = /* @__PURE__ */ built(() =>
  v.object({
    alert_ids: v.pipe(
      v.array(positiveId, 'A list of alert ids'),
      v.minLength(1, 'At least one id'),
      v.maxLength(100, 'At most 100 ids'),
      v.description('Alerts to acknowledge; each answered on its own'),
    ),
    note,
  }),
);

export const EvidenceQuery = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      worker_id: v.optional(v.pipe(idFromString, v.description("Only this worker's evidence"))),
      from: v.optional(v.pipe(calendarDate, v.description('Captured on or after this day (YYYY-MM-DD)'))),
      to: v.optional(v.pipe(calendarDate, v.description('Captured on or before this day (YYYY-MM-DD)'))),
      ...listQuery,
    }),
    v.check(dateRange, '`to` must not be before `from`'),
  ),
);

/** `PUT /workers/{id}/monitoring`, and the `settings` of the bulk change. */
export const MonitoringSettingsRequest = MonitoringSettingsInput;

export const MonitoringBulkRequest = /* @__PURE__ */ built(() =>
  v.object({
    worker_ids: v.pipe(
      v.array(positiveId, 'A list of worker ids'),
      v.minLength(1, 'At least one id'),
      v.maxLength(1000, 'At most 1000 ids'),
      v.description('Workers to change; each answered on its own'),
    ),
    settings: MonitoringSettingsInput,
  }),
);

export const VerificationJobRequest = /* @__PURE__ */ built(() =>
  v.pipe(
    v.object({
      worker_ids: v.optional(
        v.pipe(
          v.array(positiveId, 'A list of worker ids'),
          v.minLength(1, 'At least one id'),
          v.maxLength(1000, 'At most 1000 ids'),
          v.description('Workers to check; foreign and archived ones are skipped'),
        ),
      ),
      all: v.optional(v.pipe(v.literal(true, 'Only true'), v.description('Check every worker that is not archived'))),
    }),
    v.check((b) => (b.worker_ids === undefined) !== (b.all === undefined), 'Give worker_ids or all: true (one of them)'),
  ),
);

export const UsageQuery = /* @__PURE__ */ built(() =>
  v.object({
    period: v.optional(
      v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'A month, YYYY-MM'), v.description('The month (service time zone); this month when left out')),
    ),
  }),
);

export const TeamRoleRequest = /* @__PURE__ */ built(() =>
  v.object({
    name: v.pipe(name(100), v.description('What the role is called')),
    permissions: v.pipe(v.array(oneOf(PERMISSIONS)), v.maxLength(PERMISSIONS.length * 2, 'Too many'), v.description('What its users may do')),
  }),
);

export const TeamUserRequest = /* @__PURE__ */ built(() =>
  v.object({
    name: v.pipe(name(100), v.description("The person's name")),
    email: v.pipe(email, v.description('Where alert e-mails go; one user per address')),
    role_id: v.pipe(v.string('A role id'), v.regex(/^[a-z][a-z0-9_-]{0,39}$/, 'A role id'), v.description("A built-in role or a custom role's id")),
    status: v.optional(v.picklist(['active', 'disabled'], 'active or disabled'), 'active'),
    alert_min_severity: v.optional(v.picklist(['low', 'medium', 'high', 'critical', 'none'], 'low, medium, high, critical or none'), 'high'),
  }),
);

export const ImportsQuery = /* @__PURE__ */ built(() => v.object({ ...listQuery }));

export const ImportUploadQuery = /* @__PURE__ */ built(() =>
  v.object({
    mode: v.optional(
      v.pipe(
        v.picklist(['upsert', 'create_only'], 'upsert or create_only'),
        v.description('`upsert` (default): rows matching a worker by external_ref, else by registration, replace it; `create_only`: such rows fail'),
      ),
      'upsert',
    ),
    dry_run: v.optional(v.pipe(flag, v.description('`true`: check every row, existing workers included, and write nothing (default false)'))),
    name: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(255, 'At most 255 characters'),
        v.description("The file's name, kept with the import (multipart uploads carry their own)"),
      ),
    ),
  }),
);

export const ImportQuery = /* @__PURE__ */ built(() =>
  v.object({
    errors_cursor: listQuery.cursor,
  }),
);
