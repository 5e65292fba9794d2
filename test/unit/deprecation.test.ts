import {
  availabilityAt,
  deprecationHeaders,
  deprecationSchedule,
  deprecationSchedules,
  DeprecationConfigError,
} from '../../functions/core/platform/deprecation.js';

/** Deprecated families' schedules (decision 13), with the clock given: no emulator. */

const LEGACY = 'practical-training-legacy' as const;
const at = (iso: string) => new Date(iso);

describe('a deprecated family', () => {
  const env = { PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z/2027-03-02T15:00:00Z, 2027-05-04T09:00:00+01:00/2027-05-04T21:00:00+01:00' };
  const schedule = deprecationSchedule(LEGACY, env)!;

  it('is deprecated from 2026-01-01 and sunset on 2027-06-30 by default, with practical training as its successor', () => {
    expect(schedule.deprecatedAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(schedule.sunsetAt.toISOString()).toBe('2027-06-30T00:00:00.000Z');
    expect(schedule.successor).toBe('practical-training');
    expect(deprecationSchedule('practical-training', env)).toBeUndefined();
  });

  it('answers outside its brownouts until the sunset, and never inside a brownout or from the sunset on', () => {
    expect(availabilityAt(schedule, at('2026-11-22T10:00:00Z'))).toEqual({ open: true });
    expect(availabilityAt(schedule, at('2027-03-02T13:59:59.999Z'))).toEqual({ open: true });
    expect(availabilityAt(schedule, at('2027-03-02T14:00:00Z'))).toEqual({ open: false, reason: 'brownout', brownoutEndsAt: at('2027-03-02T15:00:00Z') });
    expect(availabilityAt(schedule, at('2027-03-02T14:59:59.999Z'))).toMatchObject({ open: false, reason: 'brownout' });
    expect(availabilityAt(schedule, at('2027-03-02T15:00:00Z'))).toEqual({ open: true });
    // Offsets are honoured: 09:00+01:00 is 08:00Z.
    expect(availabilityAt(schedule, at('2027-05-04T08:00:00Z'))).toEqual({ open: false, reason: 'brownout', brownoutEndsAt: at('2027-05-04T20:00:00Z') });
    expect(availabilityAt(schedule, at('2027-06-29T23:59:59.999Z'))).toEqual({ open: true });
    expect(availabilityAt(schedule, at('2027-06-30T00:00:00Z'))).toEqual({ open: false, reason: 'sunset' });
    expect(availabilityAt(schedule, at('2031-01-01T00:00:00Z'))).toEqual({ open: false, reason: 'sunset' });
  });

  it('says so in RFC 9745, RFC 8594 and RFC 8288 headers', () => {
    expect(
      deprecationHeaders(schedule, { docs: 'https://x.example/practical-training-legacy/docs', successor: 'https://x.example/practical-training/bookings' }),
    ).toEqual({
      deprecation: '@1767225600',
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '<https://x.example/practical-training-legacy/docs>; rel="deprecation"; type="text/html", <https://x.example/practical-training/bookings>; rel="successor-version"',
    });
    expect(deprecationHeaders(schedule, { docs: 'https://x.example/d' }).link).toBe('<https://x.example/d>; rel="deprecation"; type="text/html"');
  });

  it('takes its dates from the environment', () => {
    const moved = deprecationSchedule(LEGACY, {
      PRACTICAL_TRAINING_LEGACY_DEPRECATED_AT: '2026-06-01T00:00:00Z',
      PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2026-12-31T00:00:00Z',
    })!;
    expect(deprecationHeaders(moved, { docs: 'd' })).toMatchObject({
      deprecation: `@${Date.parse('2026-06-01T00:00:00Z') / 1000}`,
      sunset: 'Thu, 31 Dec 2026 00:00:00 GMT',
    });
    expect(availabilityAt(moved, at('2026-12-31T00:00:00Z'))).toEqual({ open: false, reason: 'sunset' });
  });
});

describe('a schedule that makes no sense refuses to load (the stack does not start on it)', () => {
  const refused = (env: Record<string, string>) => () => deprecationSchedules(env);

  it.each([
    ['a sunset before the deprecation', { PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2025-12-31T00:00:00Z' }, /sunset .* must come after the deprecation/],
    ['a sunset equal to the deprecation', { PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2026-01-01T00:00:00Z' }, /must come after/],
    ['an inverted brownout', { PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T15:00:00Z/2027-03-02T14:00:00Z' }, /ends before it starts/],
    [
      'overlapping brownouts',
      { PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z/2027-03-02T16:00:00Z,2027-03-02T15:00:00Z/2027-03-02T17:00:00Z' },
      /overlap/,
    ],
    ['a brownout past the sunset', { PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-06-29T00:00:00Z/2027-07-01T00:00:00Z' }, /not between/],
    ['a date without an offset', { PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2027-06-30T00:00:00' }, /ISO 8601 instant with an offset/],
    ['not a date', { PRACTICAL_TRAINING_LEGACY_SUNSET_AT: 'next summer' }, /ISO 8601 instant/],
    ['a window that is not start/end', { PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z' }, /start\/end intervals/],
  ])('%s', (_, env, message) => {
    expect(refused(env)).toThrow(DeprecationConfigError);
    expect(refused(env)).toThrow(message);
  });

  it('while adjacent windows are fine', () => {
    expect(
      refused({ PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z/2027-03-02T15:00:00Z,2027-03-02T15:00:00Z/2027-03-02T16:00:00Z' }),
    ).not.toThrow();
  });
});

describe("a deprecated family's $default route (a path with no operation)", () => {
  const event = (family: string, method: string, path: string) => ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: {
      http: { method, path, sourceIp: '127.0.0.1' },
      requestId: 'r1',
      domainName: 'abc.execute-api.eu-west-2.amazonaws.com',
      stage: '$default',
    },
    stageVariables: { family },
    isBase64Encoded: false,
  });

  it.each([
    ['portal-v1', 'POST', '/training-requests/1/cancel'],
    ['practical-training-legacy', 'GET', '/bookings/12345'],
  ])('answers %s %s %s with 404 not-found and the deprecation headers', async (family, method, path) => {
    const { handler } = await import('../../functions/http/shared/_unknown-route.js');
    const answer = await handler(event(family, method, path) as never, {} as never);
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body!)).toMatchObject({ type: '/problems/not-found', status: 404, detail: `This API has no operation ${method} ${path}` });
    expect(answer.headers).toMatchObject({ deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT', 'content-type': 'application/problem+json' });
    expect(String(answer.headers!.link)).toContain('rel="deprecation"');
  });
});
