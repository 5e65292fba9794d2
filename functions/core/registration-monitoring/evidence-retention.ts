import { toEpochSeconds } from '../platform/clock.js';
import type { Deps } from '../platform/deps.js';

/**
 * How long a registration check, its evidence and a resolved alert are kept:
 * `evidenceRetentionYears` (six by default) from the check. The items carry
 * the end as `retention_until` and as the table's `ttl`, so DynamoDB removes
 * them afterwards; reads compare `retention_until` with the clock, as TTL may
 * lag by days.
 */

export function retentionEnd(deps: Deps, checkedAt: string): Date {
  const end = new Date(checkedAt);
  end.setUTCFullYear(end.getUTCFullYear() + deps.config.evidenceRetentionYears);
  return end;
}

/** The item fields that state, and enforce, the end of an item kept from the check at `checkedAt`. */
export function retentionFields(deps: Deps, checkedAt: string): { retention_until: string; ttl: number } {
  const end = retentionEnd(deps, checkedAt);
  return { retention_until: end.toISOString(), ttl: toEpochSeconds(end) };
}
