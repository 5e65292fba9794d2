import type { PartitionKind } from './key-registry.js';

/**
 * Every partition kind of the single table, with the sort-key prefixes used
 * inside it (the conventions are in ./key-registry.ts). Entity modules import
 * this module whole (`import * as TABLE_KEYS`) and read the kinds they use,
 * each its own export, so a function's bundle carries only those.
 */

export const client = {
  pk: 'CLIENT#',
  sk: {
    client: 'CLIENT',
    // What a request needs of the client, copied from CLIENT, and its request counters (access/clients.ts).
    access: 'ACCESS',
    activeHold: 'ACTIVE_HOLD#',
    inviteHold: 'INVITE_HOLD#',
    // One of the seats a client's invites may hold at once in one event or session (inventory/hold-records.ts).
    invitePlace: 'INVITE_PLACE#',
    bookingPage: 'BOOKING_PAGE#',
    linkPlace: 'LINK_PLACE#',
    booking: 'BOOKING#',
    // Each booking once, keyed by its last change: the change log (bookings/change-log.ts).
    bookingChange: 'BOOKING_CHANGE#',
    // Each booking once, keyed by its start: lists by time (bookings/schedule.ts).
    bookingStart: 'BOOKING_START#',
    bookingInvite: 'BINVITE#',
    wallet: 'WALLET#',
    webhook: 'WEBHOOK#',
    // A deleted endpoint, kept as long as its delivery logs are, so that an erasure still finds them.
    webhookGone: 'WEBHOOK_GONE#',
    endpointCount: 'ENDPOINT_COUNT#',
    candidate: 'CANDIDATE#',
    referenceRequest: 'REFREQ#',
    // Not `REFREQ#<id>#…`: listing requests with begins_with(REFREQ#) must not read every reference too.
    reference: 'REQREF#',
    referencePointer: 'REFERENCE#',
    job: 'JOB#',
    // One per client, family and job kind while a job of that kind runs.
    runningJob: 'JOB_RUNNING#',
    // A job waiting for the running one of its kind to end (jobs/wait-list.ts), oldest first.
    waitingJob: 'JOB_WAITING#',
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
    // Data subject requests (data-rights/): an export's document while it may be downloaded, and the six-year audit record of each export and erasure.
    dataExport: 'DATA_EXPORT#',
    dataSubjectAudit: 'DSR_AUDIT#',
  },
} as const satisfies PartitionKind;
export const catalog = {
  pk: 'CATALOG#',
  sk: { interviewType: 'ITYPE#', interviewer: 'INTERVIEWER#', course: 'COURSE#', location: 'LOCATION#', version: 'VERSION' },
} as const satisfies PartitionKind;
export const trainingEvent = { pk: 'TEVENT#', sk: { event: 'TEVENT' } } as const satisfies PartitionKind;
export const templates = { pk: 'TEMPLATES', sk: { template: 'TEMPLATE#' } } as const satisfies PartitionKind;
export const requestTemplates = { pk: 'REQTEMPLATES#', sk: { template: 'REQTEMPLATE#' } } as const satisfies PartitionKind;
export const slotDay = { pk: 'SLOT#', sk: { lock: '' } } as const satisfies PartitionKind;
export const hold = { pk: 'HOLD#', sk: { hold: 'HOLD' } } as const satisfies PartitionKind;
export const paymentRequest = { pk: 'PAYREQ#', sk: { paymentRequest: 'PAYREQ' } } as const satisfies PartitionKind;
// A Stripe event a family applied, so that Stripe's retries and replays change nothing twice (30 days).
export const stripeEvent = { pk: 'STRIPE_EVENT#', sk: { event: 'STRIPE_EVENT' } } as const satisfies PartitionKind;
// A candidate's payment (a Stripe PaymentIntent) a family recorded: it confirmed a booking or is owed back, once.
export const stripePayment = { pk: 'STRIPE_PAYMENT#', sk: { payment: 'STRIPE_PAYMENT' } } as const satisfies PartitionKind;
export const paymentDue = { pk: 'PAYMENT_DUE#', sk: { booking: '' } } as const satisfies PartitionKind;
// Lent equipment by its next deadline (return due, then lost), for the equipment sweep; present while the kit is out.
export const equipmentDue = { pk: 'EQUIP_DUE#', sk: { booking: '' } } as const satisfies PartitionKind;
export const bookingPage = { pk: 'BOOKING_PAGE#', sk: { page: 'BOOKING_PAGE' } } as const satisfies PartitionKind;
// A booking invite's link token (SHA-256 of it), leading to the invite.
export const inviteToken = { pk: 'INVITE_TOKEN#', sk: { token: 'INVITE_TOKEN' } } as const satisfies PartitionKind;
export const ledger = { pk: 'LEDGER#', sk: { entry: '' } } as const satisfies PartitionKind;
export const counter = { pk: 'COUNTER#', sk: { counter: 'COUNTER' } } as const satisfies PartitionKind;
export const idempotency = { pk: 'IDEMPOTENCY#', sk: { record: 'IDEMPOTENCY' } } as const satisfies PartitionKind;
export const rate = { pk: 'RATE#', sk: { window: 'WINDOW#' } } as const satisfies PartitionKind;
export const token = { pk: 'TOKEN#', sk: { token: 'TOKEN' } } as const satisfies PartitionKind;
export const grant = { pk: 'GRANT#', sk: { grant: 'GRANT', member: 'TOKEN#' } } as const satisfies PartitionKind;
export const outbox = { pk: 'OUTBOX#', sk: { item: '' } } as const satisfies PartitionKind;
// Outbox items a queue refused, parked for an operator (events/parked.ts): the relay goes on with the items behind them.
export const relayFailed = { pk: 'RELAY_FAILED', sk: { item: '' } } as const satisfies PartitionKind;
export const webhookLog = { pk: 'WEBHOOK_LOG#', sk: { attempt: '' } } as const satisfies PartitionKind;
// A job's per-task markers: a task is counted once, however often SQS delivers it.
export const jobTask = { pk: 'JOB_TASK#', sk: { task: 'TASK#' } } as const satisfies PartitionKind;
// The simulated register's state of one number: when it was first looked up, and the operator's timeline steps.
// Each register adapter's token bucket (registration-monitoring/register-bucket.ts).
export const registerBucket = { pk: 'REGISTER_BUCKET#', sk: { bucket: 'BUCKET' } } as const satisfies PartitionKind;
export const simulatedRegister = { pk: 'SIMREG#', sk: { entry: 'SIMREG' } } as const satisfies PartitionKind;
// Registration monitoring: one due item per monitored worker, bucketed by the hour of its next check and a shard (`DUE#<yyyy-mm-ddThh>#<0-15>`), and the dispatcher's cursor.
export const monitoringDue = { pk: 'DUE#', sk: { due: '' } } as const satisfies PartitionKind;
export const dueCursor = { pk: 'DUE_CURSOR', sk: { cursor: 'DUE_CURSOR' } } as const satisfies PartitionKind;
// A month's monitoring usage rolled up to the ledger for every client (the roll-up's own marker).
export const usageRollup = { pk: 'USAGE_ROLLUP#', sk: { period: 'USAGE_ROLLUP' } } as const satisfies PartitionKind;
export const referenceForm = { pk: 'REFFORM#', sk: { form: 'REFFORM' } } as const satisfies PartitionKind;
export const referenceSubmission = { pk: 'REFSUBMIT#', sk: { submission: 'REFSUBMIT' } } as const satisfies PartitionKind;
/** A request group's page link, keyed by the SHA-256 of its token. */
export const requestLink = { pk: 'REQLINK#', sk: { link: 'REQLINK' } } as const satisfies PartitionKind;
/** An upload policy handed to a page: the key it allows, until it is attached or refused. */
export const requestUpload = { pk: 'REQUPLOAD#', sk: { upload: 'REQUPLOAD' } } as const satisfies PartitionKind;
export const schema = { pk: 'SCHEMA', sk: { version: 'SCHEMA' } } as const satisfies PartitionKind;
// The key that seals list cursors (pagination.ts).
export const config = { pk: 'CONFIG', sk: { cursorKey: 'CURSOR_KEY' } } as const satisfies PartitionKind;
