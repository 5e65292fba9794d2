import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { addDays } from '../platform/time.js';
import type { Annotation, AnnotationType, LookupResult, NormalisedStatus, RegisterAdapter, RegisterQuery, RegisterRecord } from './register-adapter.js';
import type { Register } from './registers.js';

/**
 * The simulated register, the default adapter: every
 * answer is invented and says so. Magic numbers (NMC digits 4 to 7, else the
 * last four) pick a scenario; days count from the number's first lookup, at
 * the service clock, so an injected clock drives the timelines. An operator's
 * `register set` or `register timeline` step overrides the scenario from its
 * time on. Other numbers are `not_found` unless an operator gave them a step.
 */

export const SIMULATED_ADAPTER = { id: 'simulated-register', version: '1.0.0' } as const;
const DAY_MS = 86_400_000;

export interface TimelineStep {
  at: string;
  set: { status: NormalisedStatus; annotation?: AnnotationType | null };
}

export interface SimulatedEntry {
  register: Register;
  number: string;
  first_lookup_at: string;
  timeline: TimelineStep[];
  /** The name a seeded entry (register-seed.ts) is registered under; others echo the query's. */
  seeded_name?: string;
}

const SIM = TABLE_KEYS.simulatedRegister;
export const simulatedRegisterKeys = { entry: (register: Register, number: string) => ({ pk: key(SIM.pk, register, number), sk: SIM.sk.entry }) };

/** The four digits that choose a scenario, or null. */
export function magicOf(register: Register, number: string): number | null {
  const digits = register === 'nmc' ? number.slice(3, 7) : number.slice(-4);
  return /^\d{4}$/.test(digits) ? Number(digits) : null;
}

const STATUS_TEXT: Record<Register, Partial<Record<NormalisedStatus, string>>> = {
  nmc: {
    registered: 'Registered (effective)',
    not_practising: 'Not currently practising',
    lapsed: 'Lapsed',
    suspended: 'Suspended',
    interim_suspension: 'Interim suspension order',
    removed: 'Removed following a fitness to practise decision',
    voluntarily_removed: 'Voluntarily removed',
  },
  hcpc: {
    registered: 'Registered',
    lapsed: 'Not renewed',
    suspended: 'Suspended',
    interim_suspension: 'Interim suspension order',
    removed: 'Struck off',
    voluntarily_removed: 'Deregistered',
  },
  gmc: {
    registered: 'Registered with a licence to practise',
    registered_without_licence: 'Registered without a licence to practise',
    lapsed: 'Not registered - administrative erasure',
    suspended: 'Suspended',
    interim_suspension: 'Interim order of suspension',
    removed: 'Erased',
    voluntarily_removed: 'Relinquished',
  },
};

const ANNOTATION_TEXT: Record<AnnotationType, string> = {
  conditions_of_practice: 'Conditions of practice order: supervised practice, no unsupervised medicines administration',
  interim_conditions: 'Interim conditions of practice order pending a hearing',
  undertakings: 'Undertakings agreed with the regulator: practise under a named supervisor',
  caution: 'Caution order on the register',
  warning: 'Warning issued by the GMC',
};

interface Scenario {
  status: NormalisedStatus;
  annotation?: AnnotationType;
  expiresInDays?: number;
  otherName?: boolean;
  /** Never answers within the budget. */
  hangs?: boolean;
}

/** A magic number's scenario on day `day` after its first lookup. */
function scenario(register: Register, magic: number | null, day: number): Scenario | null {
  switch (magic) {
    case 9001:
      return { status: 'registered' };
    case 9002:
      return { status: 'lapsed' };
    case 9003:
      return { status: 'suspended' };
    case 9004:
      return { status: 'interim_suspension' };
    case 9005:
      return { status: 'registered', annotation: 'conditions_of_practice' };
    case 9006:
      return { status: 'registered', annotation: register === 'gmc' ? 'warning' : 'caution' };
    case 9007:
      return { status: 'registered', annotation: register === 'hcpc' ? 'interim_conditions' : 'undertakings' };
    case 9008:
      return { status: 'removed' };
    case 9009:
      return { status: 'not_found' };
    case 9010:
      return { status: 'registered', expiresInDays: 20 };
    case 9011:
      return { status: 'registered', otherName: true };
    case 9012:
      return { status: 'registered', hangs: true };
    case 9013:
      return { status: day >= 2 && day < 4 ? 'lapsed' : 'registered' };
    case 9014:
      return { status: register === 'nmc' ? 'not_practising' : register === 'hcpc' ? 'voluntarily_removed' : 'registered_without_licence' };
    case 9015:
      return day >= 10 ? { status: 'registered', annotation: 'conditions_of_practice' } : { status: 'registered' };
    default:
      return null;
  }
}

/** How long a registration runs from its renewal: NMC 3 years, HCPC 2 years; GMC registration does not expire. */
const RENEWAL_DAYS: Record<Register, number | null> = { nmc: 3 * 365, hcpc: 2 * 365, gmc: null };
const QUALIFICATIONS: Record<Register, string[]> = {
  nmc: ['RN1: Registered Nurse - Adult', 'V300: Independent and supplementary prescriber'],
  hcpc: ['Supplementary prescribing (SP)'],
  gmc: ['GP Register'],
};
const REGISTER_NAMES: Record<Register, string> = {
  nmc: 'Nursing and Midwifery Council register',
  hcpc: 'HCPC register',
  gmc: 'GMC List of Registered Medical Practitioners',
};

/** The entry a query finds at `now`, given the number's state. */
export function simulatedAnswer(
  query: RegisterQuery,
  entry: Pick<SimulatedEntry, 'first_lookup_at' | 'timeline' | 'seeded_name'>,
  now: Date,
): Scenario & { record: RegisterRecord | null } {
  const first = new Date(entry.first_lookup_at);
  const day = Math.floor((now.getTime() - first.getTime()) / DAY_MS);
  let s =
    scenario(query.register, magicOf(query.register, query.number), day) ??
    (entry.timeline.length ? { status: 'registered' as const } : { status: 'not_found' as const });
  // An operator's step replaces the scenario's status and annotation, and answers in time.
  for (const step of entry.timeline)
    if (step.at <= now.toISOString()) s = { ...s, status: step.set.status, annotation: step.set.annotation ?? undefined, hangs: false };
  if (s.status === 'not_found') return { ...s, record: null };
  const firstDay = entry.first_lookup_at.slice(0, 10);
  const renewal = RENEWAL_DAYS[query.register];
  const expires_on = s.expiresInDays !== undefined ? addDays(firstDay, s.expiresInDays) : renewal === null ? null : addDays(firstDay, renewal);
  const annotations: Annotation[] = s.annotation ? [{ type: s.annotation, from: firstDay, to: null, summary: ANNOTATION_TEXT[s.annotation] }] : [];
  const record: RegisterRecord = {
    name_on_register: s.otherName ? 'Jordan Whitmore' : (entry.seeded_name ?? `${query.first_name} ${query.last_name}`),
    registration_status: s.status,
    status_text: STATUS_TEXT[query.register][s.status] ?? s.status,
    register_entry: `${REGISTER_NAMES[query.register]}: ${query.number} (SIMULATED)`,
    expires_on,
    licence_to_practise: query.register === 'gmc' ? s.status === 'registered' : null,
    annotations,
    recorded_qualifications: QUALIFICATIONS[query.register],
  };
  return { ...s, record };
}

/** The number's state, its first lookup recorded now if this is it (one write, whoever looks first). */
export async function touchEntry(deps: Deps, register: Register, number: string, now: Date): Promise<SimulatedEntry> {
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: simulatedRegisterKeys.entry(register, number),
      UpdateExpression:
        'SET first_lookup_at = if_not_exists(first_lookup_at, :now), timeline = if_not_exists(timeline, :none), #register = :register, #number = :number, entity = :entity',
      ExpressionAttributeNames: { '#register': 'register', '#number': 'number' },
      ExpressionAttributeValues: { ':now': now.toISOString(), ':none': [], ':register': register, ':number': number, ':entity': 'simulated-register' },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes as SimulatedEntry;
}

/** Adds an operator's step (`register set` is a step at now); the entry is created if never looked up. */
export async function addTimelineStep(deps: Deps, register: Register, number: string, step: TimelineStep): Promise<SimulatedEntry> {
  await touchEntry(deps, register, number, deps.clock());
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: simulatedRegisterKeys.entry(register, number),
      UpdateExpression: 'SET timeline = list_append(timeline, :step)',
      ExpressionAttributeValues: { ':step': [step] },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const entry = Attributes as SimulatedEntry;
  // Steps apply in time order, whatever order they were given in.
  return { ...entry, timeline: [...entry.timeline].sort((a, b) => a.at.localeCompare(b.at)) };
}

export function simulatedRegister(deps: Deps, register: Register): RegisterAdapter {
  return {
    ...SIMULATED_ADAPTER,
    mode: 'simulated',
    ratePerSecond: deps.config.registerRatePerSecond,
    async lookup(query, { now, deadline }): Promise<LookupResult> {
      const entry = await touchEntry(deps, register, query.number, now);
      const answer = simulatedAnswer(query, { ...entry, timeline: [...entry.timeline].sort((a, b) => a.at.localeCompare(b.at)) }, now);
      // 9012: the register answers only after the caller has stopped waiting.
      if (answer.hangs) await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) + 100));
      const raw = {
        simulated: true,
        register,
        query: { number: query.number, name: `${query.first_name} ${query.last_name}` },
        looked_up_at: now.toISOString(),
        entry: answer.record,
      };
      return answer.record ? { found: true, record: answer.record, raw } : { found: false, raw };
    },
  };
}

/** `register show`: the number's state and what the register answers for it now. */
export async function showEntry(deps: Deps, register: Register, number: string) {
  const now = deps.clock();
  const entry = await touchEntry(deps, register, number, now);
  const timeline = [...entry.timeline].sort((a, b) => a.at.localeCompare(b.at));
  const answer = simulatedAnswer({ register, number, first_name: '(as queried)', last_name: '' }, { ...entry, timeline }, now);
  return {
    simulated: true,
    register,
    number,
    magic: magicOf(register, number),
    first_lookup_at: entry.first_lookup_at,
    timeline,
    answers_now: answer.record ?? { found: false },
  };
}
