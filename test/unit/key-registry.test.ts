import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookingPageKeys } from '../../functions/core/bookings/booking-link.js';
import { bookingKeys } from '../../functions/core/bookings/bookings.js';
import { deprecatedCallKeys } from '../../functions/core/access/deprecated-calls.js';
import { changeKeys } from '../../functions/core/bookings/change-log.js';
import { scheduleKeys } from '../../functions/core/bookings/schedule.js';
import { candidateKeys } from '../../functions/core/portal-v2/candidates.js';
import { catalogKeys } from '../../functions/core/clinical-interview/catalog.js';
import { catalogueVersionKeys } from '../../functions/core/platform/table-cache.js';
import { clientKeys } from '../../functions/core/access/clients.js';
import { FAMILY_IDS, type FamilyId } from '../../functions/core/platform/families.js';
import { clinicalHoldKeys } from '../../functions/core/clinical-interview/holds.js';
import { holdRecordKeys } from '../../functions/core/inventory/hold-records.js';
import { inviteKeys } from '../../functions/core/bookings/invite-keys.js';
import { unitKeys } from '../../functions/core/inventory/units.js';
import { idempotencyKeys } from '../../functions/core/platform/idempotency.js';
import { jobKeys } from '../../functions/core/jobs/jobs.js';
import { dataSubjectKeys } from '../../functions/core/data-rights/records.js';
import { counterKeys } from '../../functions/core/platform/ids.js';
import { SEP, type PartitionKind } from '../../functions/core/platform/key-registry.js';
import * as TABLE_KEYS from '../../functions/core/platform/table-keys.js';
import * as GSI1_KEYS from '../../functions/core/platform/gsi1-keys.js';
import { outboxKeys } from '../../functions/core/events/outbox.js';
import { rateLimitKeys, rateSubjects } from '../../functions/core/access/rate-limit.js';
import { referenceKeys } from '../../functions/core/portal-v2/references.js';
import { templateKeys } from '../../functions/core/portal-v2/templates.js';
import { tokenKeys } from '../../functions/core/access/token-records.js';
import { ledgerKeys } from '../../functions/core/commerce/ledger.js';
import { paymentRequestKeys } from '../../functions/core/commerce/payment-requests.js';
import { walletKeys } from '../../functions/core/commerce/wallets.js';
import { webhookKeys } from '../../functions/core/webhooks/endpoints.js';
import { evidenceKeys } from '../../functions/core/registration-monitoring/evidence.js';
import { alertKeys } from '../../functions/core/registration-monitoring/alerts.js';
import { registerBucketKeys } from '../../functions/core/registration-monitoring/register-bucket.js';
import { simulatedRegisterKeys } from '../../functions/core/registration-monitoring/simulated-register.js';
import { usageKeys } from '../../functions/core/registration-monitoring/usage.js';
import { verificationKeys } from '../../functions/core/registration-monitoring/verifications.js';
import { workerKeys } from '../../functions/core/registration-monitoring/workers.js';
import { rollupKeys } from '../../functions/core/registration-monitoring/billing.js';
import { teamKeys } from '../../functions/core/access/team.js';
import { importKeys } from '../../functions/core/registration-monitoring/imports.js';
import { dueKeys } from '../../functions/core/registration-monitoring/due.js';
import { claimKeys } from '../../functions/core/registration-monitoring/queued-checks.js';
import { trainingCatalogueKeys } from '../../functions/core/practical-training/catalogue.js';
import { sessionKeys } from '../../functions/core/inventory/sessions.js';
import { vlsCatalogueKeys } from '../../functions/core/virtual-life-support/catalogue.js';
import { equipmentDueKeys } from '../../functions/core/virtual-life-support/equipment-state.js';

/** The key registry and every entity's keys, checked without a table: pure string rules. */

const CORE = join(import.meta.dirname, '../../functions/core');
type Key = Record<string, unknown>;

/** A value ending in '#' is a prefix; '' matches any sort key; anything else is an exact key. */
const matches = (registered: string, value: string) => (registered.endsWith(SEP) || registered === '' ? value.startsWith(registered) : value === registered);

/** Two registered values one `begins_with` could confuse: one is a prefix of the other. */
function overlaps(values: string[]): string[] {
  const found: string[] = [];
  for (const [i, a] of values.entries()) {
    for (const b of values.slice(i + 1)) {
      if (a.startsWith(b) || b.startsWith(a)) found.push(`"${a}" / "${b}"`);
    }
  }
  return found;
}

describe.each([
  ['table', TABLE_KEYS],
  ['gsi1', GSI1_KEYS],
] as [string, Record<string, PartitionKind>][])('the %s registry', (_, kinds) => {
  it("has no partition-key prefix that begins another kind's", () => {
    expect(overlaps(Object.values(kinds).map((k) => k.pk))).toEqual([]);
  });

  it.each(Object.entries(kinds))('%s: no sort-key prefix begins another, and "any" only where the kind holds one entity', (_, kind) => {
    const prefixes = Object.values(kind.sk);
    expect(overlaps(prefixes)).toEqual([]);
    if (prefixes.includes('')) expect(prefixes).toHaveLength(1);
  });
});

it('family ids cannot run into the next key part: no separator, and none begins another followed by it', () => {
  for (const family of FAMILY_IDS) expect(family).toMatch(/^[a-z0-9-]+$/);
  expect(overlaps(FAMILY_IDS.map((f) => f + SEP))).toEqual([]);
});

/**
 * Every keys module, with sample arguments: the keys its builders make for a
 * family (family-scoped items) or for no family. Builders that make only a
 * partition or a prefix are checked where they are used below.
 */
const SCOPED: Record<string, (family: FamilyId) => Key[]> = {
  bookingKeys: (f) => [bookingKeys.booking('cl_a', f, 7), bookingKeys.byId(f, 7), bookingKeys.paymentDue(f, '2026-11-23T09:30:00.000Z', 'cl_a', 7)],
  deprecatedCallKeys: (f) => [{ ...deprecatedCallKeys.day('cl_a', f, '2026-11-23'), ...deprecatedCallKeys.callersOn(f, '2026-11-23', 'cl_a') }],
  changeKeys: (f) => [changeKeys.entry('cl_a', f, '2026-11-23T09:30:00.000Z', 7)],
  scheduleKeys: (f) => [scheduleKeys.entry('cl_a', f, '2026-11-23T09:30:00.000Z', 7)],
  paymentRequestKeys: (f) => [paymentRequestKeys.request(f, 'tok')],
  holdRecordKeys: (f) => [
    holdRecordKeys.hold(f, 'hash'),
    holdRecordKeys.activeHold('cl_a', f),
    holdRecordKeys.inviteHold('cl_a', f, 4),
    holdRecordKeys.open(f, '2026-11-23T09:30:00.000Z', 'hash'),
  ],
  // The records' keys, and the clinical family's unit.
  clinicalHoldKeys: (f) => [clinicalHoldKeys.slotLock(f, '2026-11-23', '09:30', 2)],
  unitKeys: (f) => [unitKeys.unit(f, '2026-11-23', '09:30', 'S01')],
  sessionKeys: (f) => [sessionKeys.session(f, 7), sessionKeys.byStart(f, '2026-11-23T09:30:00.000Z', 7)],
  walletKeys: (f) => [walletKeys.credits('cl_a', f, 1), walletKeys.money('cl_a', f)],
  ledgerKeys: (f) => [ledgerKeys.entry('cl_a', f, '2026-11-23T09:30:00.000Z', 'led_1')],
  bookingPageKeys: (f) => [bookingPageKeys.ofClient('cl_a', f), bookingPageKeys.page(f, 'tok'), bookingPageKeys.place('cl_a', f, 'P1')],
  idempotencyKeys: (f) => [idempotencyKeys.record('cl_a', f, 'key-1')],
  webhookKeys: (f) => [
    webhookKeys.endpoint('cl_a', f, 3),
    webhookKeys.gone('cl_a', f, 3),
    webhookKeys.logEntry('cl_a', f, 3, '2026-11-23T09:30:00.000Z', 'evt_1', 1),
  ],
  catalogKeys: (f) => [catalogKeys.type(f, 1), catalogKeys.interviewer(f, 1)],
  catalogueVersionKeys: (f) => [catalogueVersionKeys.version(f)],
  counterKeys: (f) => [counterKeys.counter(f, 'booking')],
  inviteKeys: (f) => [inviteKeys.invite('cl_a', f, 12), inviteKeys.token(f, 'hash')],
  dataSubjectKeys: (f) => [
    dataSubjectKeys.audit('cl_a', f, 7),
    dataSubjectKeys.auditListing('2026-11-20T10:00:00.000Z', 'cl_a', f, 7),
    dataSubjectKeys.exportDocument('cl_a', f, 7),
  ],
  jobKeys: (f) => [
    jobKeys.job('cl_a', f, 7),
    jobKeys.running('cl_a', f, 'batch-verify'),
    jobKeys.waiting('cl_a', f, 'monitoring-import', 7),
    jobKeys.task(f, 7, 3),
  ],
};
const UNSCOPED: Record<string, Key[]> = {
  clientKeys: [clientKeys.item('cl_a'), clientKeys.access('cl_a'), clientKeys.listing('2026-11-23T09:30:00.000Z', 'cl_a')],
  candidateKeys: [candidateKeys.candidate('cl_a', 4)],
  referenceKeys: [
    referenceKeys.request('cl_a', 5),
    referenceKeys.reference('cl_a', 5, 6),
    referenceKeys.referencePointer('cl_a', 6),
    referenceKeys.open('2026-12-01T00:00:00.000Z', 'cl_a', 5),
    referenceKeys.formToken('tok'),
    referenceKeys.submissionToken('tok'),
  ],
  templateKeys: [templateKeys.template(1)],
  rateLimitKeys: [rateLimitKeys.window(rateSubjects.linkToken('tok'), 1_700_000_000)],
  tokenKeys: [tokenKeys.token('hash'), tokenKeys.grant('g1'), tokenKeys.grantMember('g1', 'hash')],
  outboxKeys: [outboxKeys.item('evt_1', '2026-11-23T09:30:00.000Z')],
  counterKeys: [counterKeys.counter('platform', 'client')],
  trainingCatalogueKeys: [trainingCatalogueKeys.course(1), trainingCatalogueKeys.location(1)],
  vlsCatalogueKeys: [vlsCatalogueKeys.course(1)],
  equipmentDueKeys: [equipmentDueKeys.entry('2026-11-23T09:30:00.000Z', 'cl_a', 7)],
  // The registration monitoring family's own: the family is in each key, fixed.
  workerKeys: [workerKeys.worker('cl_a', 41), workerKeys.registrationGuard('cl_a', 'nmc', '12A3456B'), workerKeys.externalRefGuard('cl_a', 'EMP-1')],
  // The account's team keeps the keys it had in registration monitoring.
  teamKeys: [teamKeys.team('cl_a'), teamKeys.user('cl_a', 1), teamKeys.userEmail('cl_a', 'a@example.org'), teamKeys.role('cl_a', 'custom-3')],
  alertKeys: [alertKeys.alert('cl_a', 12), alertKeys.guard('cl_a', 41, 'registration.expiring')],
  verificationKeys: [verificationKeys.verification('cl_a', 41, 907), verificationKeys.lock('cl_a', 41)],
  usageKeys: [usageKeys.record('cl_a', 907), usageKeys.month('cl_a', '2026-11')],
  evidenceKeys: [evidenceKeys.evidence('cl_a', 907)],
  simulatedRegisterKeys: [simulatedRegisterKeys.entry('nmc', '12A9001B')],
  registerBucketKeys: [registerBucketKeys.bucket('simulated-register', 'nmc')],
  importKeys: [
    importKeys.record('cl_a', 8),
    importKeys.chunk('cl_a', 8, 0),
    importKeys.error('cl_a', 8, 4, 0),
    importKeys.chunkDone('cl_a', 8, 0),
    importKeys.row('cl_a', 8, 4),
  ],
  rollupKeys: [rollupKeys.period('2026-11')],
  dueKeys: [dueKeys.item('2026-11-23T09:30:00.000Z', 'cl_a', 41), dueKeys.cursor()],
  claimKeys: [claimKeys.claim('cl_a', 41, 'due-2026-11-23T09:30:00.000Z'), claimKeys.claim('cl_a', 41, 'job-7')],
};

it('covers every keys module under functions/core', () => {
  const declared = readdirSync(CORE, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(join(CORE, f), 'utf8').matchAll(/export const (\w+Keys) = \{/g)].map((m) => m[1]!));
  expect([...new Set([...Object.keys(SCOPED), ...Object.keys(UNSCOPED)])].sort()).toEqual(declared.sort());
});

/** The registered kind a key's partition belongs to, and the sort-key prefix it starts with. */
function placeOf(kinds: Record<string, PartitionKind>, pk: string, sk: string) {
  const kind = Object.entries(kinds).filter(([, k]) => matches(k.pk, pk));
  if (kind.length !== 1) return `pk ${pk}: ${kind.length} kinds`;
  const [name, { sk: prefixes }] = kind[0]!;
  const entity = Object.entries(prefixes).filter(([, p]) => matches(p, sk));
  return entity.length === 1 ? `${name}.${entity[0]![0]}` : `${name}: sk ${sk} starts no registered prefix`;
}

function placesOf(key: Key): string[] {
  const places: string[] = [];
  if ('pk' in key) places.push(placeOf(TABLE_KEYS, String(key.pk), String(key.sk)));
  if ('gsi1pk' in key) places.push(`gsi1 ${placeOf(GSI1_KEYS, String(key.gsi1pk), String(key.gsi1sk))}`);
  return places;
}

const allKeys = (): [string, Key][] => [
  ...Object.entries(SCOPED).flatMap(([name, build]) => FAMILY_IDS.flatMap((f) => build(f).map((k): [string, Key] => [name, k]))),
  ...Object.entries(UNSCOPED).flatMap(([name, keys]) => keys.map((k): [string, Key] => [name, k])),
];

it('every key a builder makes lies in exactly one registered kind, under a registered sort-key prefix', () => {
  for (const [name, key] of allKeys()) {
    const places = placesOf(key);
    expect(places.length).toBeGreaterThan(0);
    for (const place of places) expect(`${name}: ${place}`).toMatch(/^\w+: (gsi1 )?\w+\.\w+$/);
  }
});

it('no two different items share a key', () => {
  const seen = new Map<string, string>();
  for (const [name, key] of allKeys()) {
    if (!('pk' in key)) continue;
    const id = `${String(key.pk)} | ${String(key.sk)}`;
    expect([id, seen.get(id) ?? name]).toEqual([id, name]);
    seen.set(id, name);
  }
});

describe('family scope', () => {
  const [a, b] = FAMILY_IDS as [FamilyId, FamilyId];

  it.each(Object.keys(SCOPED))('%s: the same arguments in two families make different keys, each naming its family', (name) => {
    const [inA, inB] = [SCOPED[name]!(a), SCOPED[name]!(b)];
    inA.forEach((key, i) => {
      expect(key).not.toEqual(inB[i]);
      for (const [attribute, value] of Object.entries(key)) {
        if (value !== inB[i]![attribute]) expect(`${attribute}=${String(value)}`).toContain(a);
      }
    });
  });

  it("a begins_with on one family's bookings, wallets or webhooks never reaches another family's", () => {
    const cases: [(f: FamilyId) => string, (f: FamilyId) => string][] = [
      [bookingKeys.familyPrefix, (f) => bookingKeys.booking('cl_a', f, 1).sk],
      [walletKeys.familyPrefix, (f) => walletKeys.credits('cl_a', f, 1).sk],
      [walletKeys.familyPrefix, (f) => walletKeys.money('cl_a', f).sk],
      [webhookKeys.familyPrefix, (f) => webhookKeys.endpoint('cl_a', f, 1).sk],
      [webhookKeys.gonePrefix, (f) => webhookKeys.gone('cl_a', f, 1).sk],
      [jobKeys.familyPrefix, (f) => jobKeys.job('cl_a', f, 1).sk],
    ];
    for (const [prefix, sk] of cases) {
      expect(sk(a).startsWith(prefix(a))).toBe(true);
      expect(sk(b).startsWith(prefix(a))).toBe(false);
    }
  });

  it("finance's month index spans families; each family's ledger partition holds only its own", () => {
    const at = '2026-11-23T09:30:00.000Z';
    const [inA, inB] = [ledgerKeys.entry('cl_a', a, at, 'led_1'), ledgerKeys.entry('cl_a', b, at, 'led_1')];
    expect(inA.gsi1pk).toBe(inB.gsi1pk);
    expect(inA.gsi1pk).toBe(ledgerKeys.month('2026-11'));
    expect(inA.pk).toBe(ledgerKeys.partition('cl_a', a));
    expect(inB.pk).not.toBe(inA.pk);
  });
});

it("listing a family's jobs reads no running marker, and one job's task markers sort by task and stay apart from another job's", () => {
  const family = FAMILY_IDS[0]!;
  expect(jobKeys.running('cl_a', family, 'batch-verify').sk.startsWith(jobKeys.familyPrefix(family))).toBe(false);
  expect(jobKeys.task(family, 7, 0).pk).not.toBe(jobKeys.task(family, 70, 0).pk);
  expect(jobKeys.task(family, 7, 9).sk < jobKeys.task(family, 7, 10).sk).toBe(true);
});

it("a request's references are not under the prefix that lists requests, and one request's never under another's", () => {
  const reference = referenceKeys.reference('cl_a', 5, 6).sk;
  expect(reference.startsWith(referenceKeys.requestPrefix)).toBe(false);
  expect(reference.startsWith(referenceKeys.referencesOf(5))).toBe(true);
  // Request 5 and request 50 (or 5 followed by anything) stay apart.
  expect(referenceKeys.reference('cl_a', 50, 6).sk.startsWith(referenceKeys.referencesOf(5))).toBe(false);
  expect(candidateKeys.candidate('cl_a', 1).sk.startsWith(candidateKeys.prefix)).toBe(true);
});
