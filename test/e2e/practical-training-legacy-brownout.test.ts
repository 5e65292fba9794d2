import type { LocalStack } from '../../lib/local/stack.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * A brownout: inside a
 * configured window the deprecated family answers 410 before anything else,
 * authentication and validation included, and never 429 or 503. The window
 * is set around now, for the stack's real clock (the unit tests move the
 * clock across windows and the sunset).
 */

let stack: LocalStack;
let legacy: string;
let practical: string;
const start = new Date(Date.now() - 60_000);
const end = new Date(Date.now() + 3_600_000);

beforeAll(async () => {
  stack = await startTestStack({ PRACTICAL_TRAINING_LEGACY_BROWNOUTS: `${start.toISOString()}/${end.toISOString()}` });
  legacy = stack.info.families['practical-training-legacy']!;
  practical = stack.info.families['practical-training']!;
});
afterAll(() => stack?.stop());

it('answers 410 api-sunset on every operation, before authentication and validation, with the deprecation headers', async () => {
  const token = (await call(`${practical}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
  for (const path of ['/bookings/past', '/bookings/upcoming', '/bookings/search?date=not-a-date', '/booking-links']) {
    for (const auth of [token, undefined, 'not-a-token']) {
      const response = await call(`${legacy}${path}`, { token: auth });
      expect(response.status).toBe(410);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body).toMatchObject({
        type: '/problems/api-sunset',
        status: 410,
        sunset: '2027-06-30T00:00:00.000Z',
        brownout_ends_at: end.toISOString(),
        successor: expect.stringMatching(new RegExp(`^${practical}/`)),
      });
      expect(response.headers.get('retry-after')).toBeNull();
      expect(response.headers.get('deprecation')).toBe('@1767225600');
      expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
      expect(response.headers.get('link')).toContain('rel="successor-version"');
    }
  }
  // A path it has no operation for is gone too (its $default route), not a bare 404.
  const unknown = await call(`${legacy}/no-such-operation`, { token });
  expect(unknown.status).toBe(410);
  expect(unknown.body).toMatchObject({ type: '/problems/api-sunset', brownout_ends_at: end.toISOString(), successor: practical });
  expect(unknown.headers.get('deprecation')).toBe('@1767225600');
  // The documentation stays up, for those who migrate; the successor answers as ever.
  expect((await call(`${legacy}/openapi.json`)).status).toBe(200);
  expect((await fetch(`${legacy}/docs`)).status).toBe(200);
  expect((await call(`${practical}/bookings`, { token })).status).toBe(200);
  expect(stack.info.deprecations['practical-training-legacy']!.brownouts).toEqual([{ start: start.toISOString(), end: end.toISOString() }]);
});
