import type { FamilyId } from './families.js';

/**
 * Every partition kind of the single table and of its index, with the
 * sort-key prefixes used inside it. Entity modules build their keys from
 * these constants and nowhere else; test/unit/key-registry.test.ts checks
 * that no prefix of a kind is a prefix of another, so a `begins_with` query
 * for one entity never returns another's items.
 *
 * Conventions the test relies on:
 * - a value ending in `#` is a prefix followed by '#'-separated parts; any
 *   other value is an exact key (`'CLIENT'`, `'CLIENTS'`);
 * - `''` (any sort key) only in a kind that holds one entity;
 * - a family-scoped key puts the family right after its prefix
 *   (`BOOKING#clinical-interview#…`), and family ids never contain '#', so
 *   one family's prefix never begins another's.
 */

export const SEP = '#';

/** Bumped whenever keys change shape; the local stack refuses a table written under another version. */
export const KEY_FORMAT_VERSION = 2;

export interface PartitionKind {
  pk: string;
  sk: Record<string, string>;
}

export const TABLE_KEYS = {
  client: {
    pk: 'CLIENT#',
    sk: {
      client: 'CLIENT',
      activeHold: 'ACTIVE_HOLD#',
      inviteHold: 'INVITE_HOLD#',
      bookingPage: 'BOOKING_PAGE#',
      linkPlace: 'LINK_PLACE#',
      booking: 'BOOKING#',
      // Each booking once, keyed by its last change: the change log (bookings/changes.ts).
      bookingChange: 'BOOKING_CHANGE#',
      // Each booking once, keyed by its start: lists by time (bookings/schedule.ts).
      bookingStart: 'BOOKING_START#',
      bookingInvite: 'BINVITE#',
      wallet: 'WALLET#',
      webhook: 'WEBHOOK#',
      endpointCount: 'ENDPOINT_COUNT#',
      candidate: 'CANDIDATE#',
      referenceRequest: 'REFREQ#',
      // Not `REFREQ#<id>#…`: listing requests with begins_with(REFREQ#) must not read every reference too.
      reference: 'REQREF#',
      referencePointer: 'REFERENCE#',
      job: 'JOB#',
      // One per client, family and job kind while a job of that kind runs.
      runningJob: 'JOB_RUNNING#',
      // A family's balance alert thresholds (practical training).
      balanceAlerts: 'BALANCE_ALERTS#',
      // Calls to a deprecated family per UTC day (access/deprecated-calls.ts).
      deprecatedCalls: 'DEPRECATED_CALLS#',
      // Registration monitoring: workers, the guards that keep (register, number) and external_ref unique, team users, the account's monitoring record.
      worker: 'WORKER#',
      workerGuard: 'WORKER_GUARD#',
      teamUser: 'TEAM_USER#',
      // One team user per e-mail address in an account.
      teamUserEmail: 'TEAM_USER_EMAIL#',
      teamRole: 'TEAM_ROLE#',
      monitoring: 'MONITORING#',
      verification: 'VERIFICATION#',
      verifyLock: 'VERIFY_LOCK#',
      alert: 'ALERT#',
      alertGuard: 'ALERT_GUARD#',
      usage: 'USAGE#',
      usageMonth: 'USAGE_MONTH#',
      evidence: 'EVIDENCE#',
      // A queued check's claim on (worker, due_at) or (job|import, worker): it fixes the check's verification id.
      checkClaim: 'CHECK_CLAIM#',
      // CSV imports: the import, its validated rows in chunks, its row errors, and each chunk's counted marker.
      importRecord: 'IMPORT#',
      importChunk: 'IMPORT_CHUNK#',
      importError: 'IMPORT_ERROR#',
      importChunkDone: 'IMPORT_DONE#',
      // Each committed row's outcome, written with its worker: a redelivered or racing chunk reads it instead of guessing.
      importRow: 'IMPORT_ROW#',
      // Portal request groups (requests/group-kind.ts): `<prefix><kind>#…`.
      groupRequest: 'GREQ#',
      groupItem: 'GITEM#',
      groupItemPointer: 'GITEMPTR#',
    },
  },
  catalog: { pk: 'CATALOG#', sk: { interviewType: 'ITYPE#', interviewer: 'INTERVIEWER#', course: 'COURSE#', location: 'LOCATION#' } },
  trainingEvent: { pk: 'TEVENT#', sk: { event: 'TEVENT' } },
  templates: { pk: 'TEMPLATES', sk: { template: 'TEMPLATE#' } },
  requestTemplates: { pk: 'REQTEMPLATES#', sk: { template: 'REQTEMPLATE#' } },
  slotDay: { pk: 'SLOT#', sk: { lock: '' } },
  hold: { pk: 'HOLD#', sk: { hold: 'HOLD' } },
  paymentRequest: { pk: 'PAYREQ#', sk: { paymentRequest: 'PAYREQ' } },
  paymentDue: { pk: 'PAYMENT_DUE#', sk: { booking: '' } },
  // Lent equipment by its next deadline (return due, then lost), for the equipment sweep; present while the kit is out.
  equipmentDue: { pk: 'EQUIP_DUE#', sk: { booking: '' } },
  bookingPage: { pk: 'BOOKING_PAGE#', sk: { page: 'BOOKING_PAGE' } },
  // A booking invite's link token (SHA-256 of it), leading to the invite.
  inviteToken: { pk: 'INVITE_TOKEN#', sk: { token: 'INVITE_TOKEN' } },
  ledger: { pk: 'LEDGER#', sk: { entry: '' } },
  counter: { pk: 'COUNTER#', sk: { counter: 'COUNTER' } },
  idempotency: { pk: 'IDEMPOTENCY#', sk: { record: 'IDEMPOTENCY' } },
  rate: { pk: 'RATE#', sk: { window: 'WINDOW#' } },
  token: { pk: 'TOKEN#', sk: { token: 'TOKEN' } },
  grant: { pk: 'GRANT#', sk: { grant: 'GRANT', member: 'TOKEN#' } },
  outbox: { pk: 'OUTBOX#', sk: { item: '' } },
  webhookLog: { pk: 'WEBHOOK_LOG#', sk: { attempt: '' } },
  // A job's per-task markers: a task is counted once, however often SQS delivers it.
  jobTask: { pk: 'JOB_TASK#', sk: { task: 'TASK#' } },
  // The simulated register's state of one number: when it was first looked up, and the operator's timeline steps.
  simulatedRegister: { pk: 'SIMREG#', sk: { entry: 'SIMREG' } },
  // Registration monitoring: one due item per monitored worker, bucketed by the hour of its next check and a shard (`DUE#<yyyy-mm-ddThh>#<0-15>`), and the dispatcher's cursor.
  monitoringDue: { pk: 'DUE#', sk: { due: '' } },
  dueCursor: { pk: 'DUE_CURSOR', sk: { cursor: 'DUE_CURSOR' } },
  // A month's monitoring usage rolled up to the ledger for every client (the roll-up's own marker).
  usageRollup: { pk: 'USAGE_ROLLUP#', sk: { period: 'USAGE_ROLLUP' } },
  referenceForm: { pk: 'REFFORM#', sk: { form: 'REFFORM' } },
  referenceSubmission: { pk: 'REFSUBMIT#', sk: { submission: 'REFSUBMIT' } },
  /** A request group's page link, keyed by the SHA-256 of its token. */
  requestLink: { pk: 'REQLINK#', sk: { link: 'REQLINK' } },
  /** An upload policy handed to a page: the key it allows, until it is attached or refused. */
  requestUpload: { pk: 'REQUPLOAD#', sk: { upload: 'REQUPLOAD' } },
  schema: { pk: 'SCHEMA', sk: { version: 'SCHEMA' } },
  // The key that seals list cursors (pagination.ts).
  config: { pk: 'CONFIG', sk: { cursorKey: 'CURSOR_KEY' } },
} as const satisfies Record<string, PartitionKind>;

/** The same for the index `gsi1` (gsi1pk, gsi1sk). */
export const GSI1_KEYS = {
  clients: { pk: 'CLIENTS', sk: { listing: '' } },
  bookingById: { pk: 'BOOKING#', sk: { booking: 'BOOKING' } },
  ledgerMonth: { pk: 'LEDGER_MONTH#', sk: { entry: '' } },
  openReferenceRequests: { pk: 'OPEN_REFREQ', sk: { open: '' } },
  openGroupRequests: { pk: 'OPEN_GREQ#', sk: { open: '' } },
  /** Closed request groups by the day their retention ends (the purge schedule). */
  groupPurge: { pk: 'GROUP_PURGE#', sk: { due: '' } },
  trainingEventsByStart: { pk: 'TEVENTS_BY_START#', sk: { event: '' } },
  // A family's unit locks of one month, by day: `LOCKS#<family>#<yyyy-mm>` / `<date>#<time>#<unit>`.
  locksByMonth: { pk: 'LOCKS#', sk: { lock: '' } },
  openHolds: { pk: 'OPEN_HOLD#', sk: { hold: '' } },
  // A deprecated family's callers on one UTC day: `DEPRECATED_CALLS#<family>#<date>` / client id.
  deprecatedCalls: { pk: 'DEPRECATED_CALLS#', sk: { client: '' } },
} as const satisfies Record<string, PartitionKind>;

/** `prefix` then the parts, '#'-separated: `key('BOOKING#', 'clinical-interview', '0000000007')`. */
export const key = (prefix: string, ...parts: (string | number)[]): string => prefix + parts.join(SEP);

/** Where a family's keys of `prefix` begin, for `begins_with`: `BOOKING#clinical-interview#`. */
export const familyPrefix = (prefix: string, family: FamilyId): string => `${prefix}${family}${SEP}`;
