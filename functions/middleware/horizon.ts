import type { Deps } from '../core/platform/deps.js';
import { beyondHorizon, HORIZON_DAYS } from '../core/platform/time.js';
import { validationProblem } from './problems.js';

/**
 * Dates past the booking horizon, refused as the schema refuses a field. A
 * schema cannot see the injected clock, and core cannot say whether a field
 * is a body pointer or a query parameter, so the check sits here, on the
 * rule core states once.
 */
export function refuseBeyondHorizon(deps: Deps, where: 'body' | 'query', dates: Record<string, string | undefined>): void {
  const detail = `At most ${HORIZON_DAYS} days ahead`;
  const errors = Object.entries(dates)
    .filter(([, date]) => date !== undefined && beyondHorizon(date, deps.clock(), deps.config.serviceTimeZone))
    .map(([field]) => (where === 'body' ? { pointer: `/${field}`, detail } : { parameter: field, detail }));
  if (errors.length) throw validationProblem(errors);
}
