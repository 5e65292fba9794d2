/**
 * The three professional registers and what a registration number of each
 * looks like. Pure rules: the
 * request schema, the CSV import and the simulated register all read them.
 */

export const MONITORING_FAMILY = 'registration-monitoring' as const;

export { REGISTERS, type Register } from '../platform/registration-vocabulary.js';
import { REGISTERS, type Register } from '../platform/registration-vocabulary.js';

/** HCPC professions by their number prefix; the three-letter ones are listed first so `PYL` is never read as `PY…`. */
export const HCPC_PROFESSIONS = ['HAD', 'ODP', 'PYL', 'AS', 'BS', 'CH', 'CS', 'DT', 'OR', 'OT', 'PA', 'PH', 'PO', 'RA', 'SL'] as const;
export type HcpcProfession = (typeof HCPC_PROFESSIONS)[number];

const PATTERNS: Record<Register, RegExp> = {
  nmc: /^\d{2}[A-Z]\d{4}[A-Z]$/,
  hcpc: new RegExp(`^(${HCPC_PROFESSIONS.join('|')})\\d{1,6}$`),
  gmc: /^\d{7}$/,
};

export const NUMBER_FORMATS: Record<Register, string> = {
  nmc: 'an NMC PIN: two digits, a letter, four digits, a letter (for example 12A3456B)',
  hcpc: `an HCPC number: a profession prefix (${HCPC_PROFESSIONS.join(', ')}) and 1 to 6 digits (for example PA123456)`,
  gmc: 'a GMC reference number: 7 digits (for example 1234567)',
};

/** Upper-cased, spaces removed: how numbers are stored and compared. */
export const normaliseNumber = (number: string): string => number.replace(/\s+/g, '').toUpperCase();

export const isRegistrationNumber = (register: Register, number: string): boolean => PATTERNS[register].test(number);

/** The HCPC profession a number's prefix names; null for the other registers. */
export function professionOf(register: Register, number: string): HcpcProfession | null {
  if (register !== 'hcpc') return null;
  return HCPC_PROFESSIONS.find((p) => number.startsWith(p) && /^\d/.test(number.slice(p.length))) ?? null;
}

export interface Registration {
  register: Register;
  number: string;
  profession: HcpcProfession | null;
}

/** A worker's monitoring settings when the client gives none. */
export const DEFAULT_MONITORING = { enabled: true, frequency: 'daily', paused_until: null } as const;

/** The register a number belongs to: the three formats do not overlap. */
export const registerOfNumber = (number: string): Register | undefined => REGISTERS.find((r) => isRegistrationNumber(r, normaliseNumber(number)));
