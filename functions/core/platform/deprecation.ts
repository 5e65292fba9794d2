import { FAMILY_IDS, familySpec, isFamilyId, type FamilyId } from './families.js';
import { environment } from './config.js';

/**
 * Deprecated families (decision 13), stated once for every deprecated family: the dates come
 * from the family's spec, the environment may move them and add brownout
 * windows, and the edge asks `availabilityAt` before anything else and adds
 * `deprecationHeaders` to every answer.
 *
 * Environment, per family (`PRACTICAL_TRAINING_LEGACY_…` for
 * practical-training-legacy): `_DEPRECATED_AT` and `_SUNSET_AT` (ISO 8601
 * instants) and `_BROWNOUTS`, comma-separated `start/end` intervals of ISO
 * instants. A schedule that makes no sense (sunset not after deprecation, an
 * inverted or overlapping window, a window outside deprecation..sunset)
 * refuses to load: the stack does not start on it.
 */

export interface Window {
  start: Date;
  end: Date;
}

export interface DeprecationSchedule {
  family: FamilyId;
  deprecatedAt: Date;
  sunsetAt: Date;
  /** Sorted, disjoint, each inside deprecation..sunset; `[start, end)`. */
  brownouts: Window[];
  successor?: FamilyId;
}

export type Availability = { open: true } | { open: false; reason: 'sunset' | 'brownout'; brownoutEndsAt?: Date };

export class DeprecationConfigError extends Error {
  constructor(family: FamilyId, detail: string) {
    super(`Deprecation schedule of ${family}: ${detail}`);
    this.name = 'DeprecationConfigError';
  }
}

const envPrefix = (family: FamilyId) => family.toUpperCase().replaceAll('-', '_');

/** The environment variables that move a family's schedule (the CDK app takes them as context of the same names). */
export const deprecationEnvNames = (family: FamilyId): string[] => ['DEPRECATED_AT', 'SUNSET_AT', 'BROWNOUTS'].map((n) => `${envPrefix(family)}_${n}`);

function instant(family: FamilyId, name: string, raw: string): Date {
  // An instant needs its offset: a bare date or local time would depend on the server's zone.
  const date = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new DeprecationConfigError(family, `${name} must be an ISO 8601 instant with an offset, got "${raw}"`);
  return date;
}

function windows(family: FamilyId, name: string, raw: string | undefined): Window[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((interval) => {
    const [start, end, ...rest] = interval.trim().split('/');
    if (!start || !end || rest.length) throw new DeprecationConfigError(family, `${name} takes start/end intervals, got "${interval.trim()}"`);
    return { start: instant(family, name, start), end: instant(family, name, end) };
  });
}

/** The family's schedule, from its spec and the environment; undefined for a family that is not deprecated. */
export function deprecationSchedule(family: FamilyId, env: NodeJS.ProcessEnv = environment()): DeprecationSchedule | undefined {
  const spec = familySpec(family);
  if (!spec.deprecation) return undefined;
  const p = envPrefix(family);
  const deprecatedAt = instant(family, `${p}_DEPRECATED_AT`, env[`${p}_DEPRECATED_AT`] || spec.deprecation.deprecatedAt);
  const sunsetAt = instant(family, `${p}_SUNSET_AT`, env[`${p}_SUNSET_AT`] || spec.deprecation.sunsetAt);
  if (sunsetAt <= deprecatedAt)
    throw new DeprecationConfigError(family, `the sunset (${sunsetAt.toISOString()}) must come after the deprecation (${deprecatedAt.toISOString()})`);
  const brownouts = windows(family, `${p}_BROWNOUTS`, env[`${p}_BROWNOUTS`]).sort((a, b) => a.start.getTime() - b.start.getTime());
  brownouts.forEach((w, i) => {
    const span = `${w.start.toISOString()}/${w.end.toISOString()}`;
    if (w.end <= w.start) throw new DeprecationConfigError(family, `brownout ${span} ends before it starts`);
    if (w.start < deprecatedAt || w.end > sunsetAt) throw new DeprecationConfigError(family, `brownout ${span} is not between the deprecation and the sunset`);
    const previous = brownouts[i - 1];
    if (previous && w.start < previous.end)
      throw new DeprecationConfigError(family, `brownouts ${previous.start.toISOString()}/${previous.end.toISOString()} and ${span} overlap`);
  });
  const successor = spec.deprecation.successor;
  if (successor !== undefined && !isFamilyId(successor)) throw new DeprecationConfigError(family, `unknown successor family ${successor}`);
  return { family, deprecatedAt, sunsetAt, brownouts, successor };
}

/** Every deprecated family's schedule; throws on the first one that makes no sense (the stack's start-up check). */
export const deprecationSchedules = (env: NodeJS.ProcessEnv = environment()): DeprecationSchedule[] =>
  FAMILY_IDS.flatMap((family) => deprecationSchedule(family, env) ?? []);

/** Whether the family answers at `now`: after the sunset, or inside a brownout window, it does not. */
export function availabilityAt(schedule: DeprecationSchedule, now: Date): Availability {
  if (now >= schedule.sunsetAt) return { open: false, reason: 'sunset' };
  const brownout = schedule.brownouts.find((w) => w.start <= now && now < w.end);
  return brownout ? { open: false, reason: 'brownout', brownoutEndsAt: brownout.end } : { open: true };
}

/**
 * RFC 9745 `Deprecation: @<unix seconds>`, RFC 8594 `Sunset: <HTTP-date>`,
 * and RFC 8288 links to the documentation (`rel="deprecation"`) and to the
 * successor (`rel="successor-version"`, when its address is known).
 */
export function deprecationHeaders(schedule: DeprecationSchedule, links: { docs: string; successor?: string }): Record<string, string> {
  const link = [`<${links.docs}>; rel="deprecation"; type="text/html"`, ...(links.successor ? [`<${links.successor}>; rel="successor-version"`] : [])];
  return {
    deprecation: `@${Math.floor(schedule.deprecatedAt.getTime() / 1000)}`,
    sunset: schedule.sunsetAt.toUTCString(),
    link: link.join(', '),
  };
}
