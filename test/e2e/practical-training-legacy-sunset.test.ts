import type { LocalStack } from '../../lib/local/stack.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * After the sunset: the
 * deprecated family answers 410 for good. Its dates are configuration, and
 * a schedule that makes no sense stops the stack from starting.
 */

let stack: LocalStack | undefined;
afterAll(() => stack?.stop());

it('refuses to start on a sunset before the deprecation, or on overlapping brownouts', async () => {
  await expect(startTestStack({ PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2025-06-01T00:00:00Z' })).rejects.toThrow(/sunset .* must come after the deprecation/);
  await expect(
    startTestStack({
      PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '',
      PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z/2027-03-02T16:00:00Z,2027-03-02T15:00:00Z/2027-03-02T17:00:00Z',
    }),
  ).rejects.toThrow(/overlap/);
});

it('answers 410 on every operation once the sunset has passed, and says when it was', async () => {
  stack = await startTestStack({
    PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '',
    PRACTICAL_TRAINING_LEGACY_DEPRECATED_AT: '2025-01-01T00:00:00Z',
    PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2026-01-01T00:00:00Z',
  });
  const legacy = stack.info.families['practical-training-legacy']!;
  const practical = stack.info.families['practical-training']!;
  const token = (await call(`${practical}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
  for (const path of ['/bookings/past', '/bookings/upcoming', '/bookings/search?date=2026-01-05', '/booking-links']) {
    const response = await call(`${legacy}${path}`, { token });
    expect(response.status).toBe(410);
    expect(response.body).toMatchObject({
      type: '/problems/api-sunset',
      sunset: '2026-01-01T00:00:00.000Z',
      brownout_ends_at: null,
      detail: expect.stringContaining('switched off on Thu, 01 Jan 2026'),
    });
    expect(response.headers.get('deprecation')).toBe(`@${Date.parse('2025-01-01T00:00:00Z') / 1000}`);
    expect(response.headers.get('sunset')).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
  }
  expect(stack.info.deprecations['practical-training-legacy']).toMatchObject({
    deprecated_at: '2025-01-01T00:00:00.000Z',
    sunset_at: '2026-01-01T00:00:00.000Z',
    successor: 'practical-training',
  });
  // The Services family is not deprecated: it answers.
  const clinical = (await call(`${stack.info.families['clinical-interview']}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
  expect((await call(`${stack.info.families.services}/bookings`, { token: clinical })).status).toBe(200);
});
