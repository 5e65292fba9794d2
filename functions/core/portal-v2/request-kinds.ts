import type { Deps } from '../platform/deps.js';
import { expireDueRequests } from '../requests/lifecycle.js';
import { references } from './references.js';
import { GROUP_KINDS } from './request-groups.js';

/** The request kinds of portal v2, each with its expiry sweep: one schedule runs them all. */
const SWEEPS: Record<string, (deps: Deps) => Promise<number>> = {
  reference: (deps) => expireDueRequests(deps, references),
  ...Object.fromEntries(Object.entries(GROUP_KINDS).map(([name, kind]) => [name, (deps: Deps) => expireDueRequests(deps, kind)])),
};

/** Expires due requests of every kind; returns how many of each kind became expired. */
export async function expireDueRequestsOfEveryKind(deps: Deps): Promise<Record<string, number>> {
  const expired: Record<string, number> = {};
  for (const [kind, sweep] of Object.entries(SWEEPS)) expired[kind] = await sweep(deps);
  return expired;
}
