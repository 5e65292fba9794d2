import type { REGISTRATION_STATUSES } from './registration-statuses.js';
import type { Register } from './registers.js';

/**
 * How a register is reached: one
 * adapter per register, the simulated one by default. A live adapter (GMC's
 * licensed list, say) implements the same interface; failures are thrown as
 * `RegisterUnavailable` and become `error` checks. Pure: the request schemas
 * read its vocabulary; the adapters themselves are chosen in adapters.ts.
 */

export type NormalisedStatus = (typeof REGISTRATION_STATUSES)[number];

export type AnnotationType = 'conditions_of_practice' | 'interim_conditions' | 'undertakings' | 'caution' | 'warning';

export interface Annotation {
  type: AnnotationType;
  from: string;
  to: string | null;
  summary: string;
}

export interface RegisterRecord {
  name_on_register: string;
  registration_status: NormalisedStatus;
  /** The register's own words, verbatim. */
  status_text: string;
  register_entry: string;
  expires_on: string | null;
  licence_to_practise: boolean | null;
  annotations: Annotation[];
  recorded_qualifications: string[];
}

export interface RegisterQuery {
  register: Register;
  number: string;
  first_name: string;
  last_name: string;
}

export interface LookupResult {
  found: boolean;
  record?: RegisterRecord;
  /** What the register answered, kept as evidence. */
  raw: unknown;
}

export type AdapterErrorCode = 'timeout' | 'unavailable' | 'rate_limited';

export class RegisterUnavailable extends Error {
  constructor(
    readonly code: AdapterErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'RegisterUnavailable';
  }
}

export interface RegisterAdapter {
  id: string;
  version: string;
  mode: 'simulated' | 'live';
  ratePerSecond: number;
  lookup(query: RegisterQuery, options: { now: Date; deadline: number }): Promise<LookupResult>;
}

/** The lookup, or `timeout` once the deadline (epoch ms) passes first. */
export async function lookupWithin(adapter: RegisterAdapter, query: RegisterQuery, now: Date, deadline: number): Promise<LookupResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RegisterUnavailable('timeout', `The ${query.register.toUpperCase()} register did not answer in time`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return await Promise.race([adapter.lookup(query, { now, deadline }), late]);
  } finally {
    clearTimeout(timer);
  }
}
