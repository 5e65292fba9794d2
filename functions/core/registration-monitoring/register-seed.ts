import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import type { AnnotationType, NormalisedStatus } from './register-adapter.js';
import { REGISTERS, type Register } from './registers.js';
import { simulatedRegisterKeys, type SimulatedEntry } from './simulated-register.js';

/**
 * `register seed`: plausible invented entries in
 * the simulated register beside its magic numbers, so a demo or a test can
 * check workers the register knows by name. The same numbers every time,
 * each put only if absent: seeding again changes nothing. Mostly registered,
 * with the odd lapsed entry and conditions, and renewals spread over the
 * register's cycle (NMC 3 years, HCPC 2 years; GMC registration does not
 * expire, but a doctor may hold it without a licence).
 */

export const SEED_MAX_PER_REGISTER = 500;
const DAY_MS = 86_400_000;
const CYCLE_DAYS: Record<Register, number> = { nmc: 3 * 365, hcpc: 2 * 365, gmc: 5 * 365 };
const FIRST = [
  'Amara',
  'Ben',
  'Chloe',
  'Daniel',
  'Efua',
  'Fiona',
  'George',
  'Hannah',
  'Imran',
  'Jess',
  'Kofi',
  'Laura',
  'Mohammed',
  'Niamh',
  'Oliver',
  'Precious',
  'Rhys',
  'Sofia',
  'Tomasz',
  'Yasmin',
];
const LAST = [
  'Okafor',
  'Hughes',
  'Patel',
  'Murphy',
  'Nowak',
  'Campbell',
  'Mensah',
  'Evans',
  'Begum',
  'Walsh',
  'Ali',
  'Roberts',
  'Chen',
  'Davies',
  'Osei',
  'Kaur',
  'Thomas',
  'Reid',
  'Lewis',
  'Hassan',
];
const HCPC_SEED_PROFESSIONS = ['PA', 'OT', 'PH', 'RA', 'ODP', 'PYL', 'SL', 'CH'] as const;
const NMC_LETTERS = 'ABCDEFGHJKLMNPRSTWXY';

export interface SeededEntry {
  register: Register;
  number: string;
  name: string;
  status: NormalisedStatus;
  annotation: AnnotationType | null;
}

/** The i-th seeded number of the register: never a magic number (their last four stay below 9000). */
function numberOf(register: Register, i: number): string {
  const four = String(1000 + ((i * 379) % 8000)).padStart(4, '0');
  if (register === 'nmc') return `${String(10 + (i % 90)).padStart(2, '0')}${NMC_LETTERS[i % 20]}${four}${NMC_LETTERS[(i * 7) % 20]}`;
  if (register === 'hcpc') return `${HCPC_SEED_PROFESSIONS[i % HCPC_SEED_PROFESSIONS.length]}${String(Math.floor(i / 8) % 10)}${four}`;
  return `${String(3 + (i % 4))}${String(Math.floor(i / 4) % 100).padStart(2, '0')}${four}`;
}

/** The i-th entry of the register: most registered; one in ten lapsed; one in ten under conditions (a GMC doctor: without a licence). */
export function seededEntry(register: Register, i: number): SeededEntry {
  const number = numberOf(register, i);
  const name = `${FIRST[(i * 3 + REGISTERS.indexOf(register)) % FIRST.length]} ${LAST[(i * 7 + 1) % LAST.length]}`;
  if (i % 10 === 7) return { register, number, name, status: 'lapsed', annotation: null };
  if (i % 10 === 4)
    return register === 'gmc'
      ? { register, number, name, status: 'registered_without_licence', annotation: null }
      : { register, number, name, status: 'registered', annotation: 'conditions_of_practice' };
  return { register, number, name, status: 'registered', annotation: null };
}

/** Seeds `perRegister` entries in each register; answers what it created and what was there already. */
export async function seedRegister(deps: Deps, perRegister: number): Promise<{ created: number; existing: number; entries: SeededEntry[] }> {
  const now = deps.clock().getTime();
  const entries = REGISTERS.flatMap((register) => Array.from({ length: perRegister }, (_, i) => seededEntry(register, i)));
  let created = 0;
  for (const [n, e] of entries.entries()) {
    // Renewed at a point in the cycle, so expiries spread over the coming years.
    const firstLookup = new Date(now - ((n * 97) % CYCLE_DAYS[e.register]) * DAY_MS).toISOString();
    const item: SimulatedEntry & { pk: string; sk: string; entity: string } = {
      ...simulatedRegisterKeys.entry(e.register, e.number),
      entity: 'simulated-register',
      register: e.register,
      number: e.number,
      first_lookup_at: firstLookup,
      timeline: [{ at: firstLookup, set: { status: e.status, annotation: e.annotation } }],
      seeded_name: e.name,
    };
    try {
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
      created++;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
    }
  }
  return { created, existing: entries.length - created, entries };
}
