import type * as account from '../routes/registration-monitoring-account.js';
import { json, none, type OperationContract } from './contract.js';
import { IMPORT, TEAM_ROLE, TEAM_USER, USAGE } from './registration-monitoring-examples.js';
import * as M from './registration-monitoring-responses.js';

const BILLING = 'Usage and billing';
const TEAM = 'Team';
const IMPORTS = 'Imports';
const { name: userName, email: userEmail, role_id, alert_min_severity } = TEAM_USER;
const userBody = { name: userName, email: userEmail, role_id, status: 'active', alert_min_severity };
const lastOwner = { code: 'last-owner', detail: "The account's last active owner cannot be removed, disabled or demoted: make another user an owner first" };
const ownerRequired = { code: 'owner-required', detail: 'Only an owner may grant, change or remove an owner' };
const builtIn = { code: 'role-built-in', detail: 'The built-in role viewer cannot be changed or deleted' };

/** The registration monitoring family's account operations: usage and billing, team roles and users, imports. */
export const REGISTRATION_MONITORING_ACCOUNT_CONTRACTS: Record<keyof typeof account, OperationContract> = {
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
