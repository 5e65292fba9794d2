import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimitKeys, rateSubjects, throttledAuthentication } from '../../functions/core/access/rate-limit.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { testClock, testDeps, type TestClock } from '../support/env.js';

/** Abuse-and-isolation 4: failures are counted before the secret is checked, per address, per (client, address), and per client only past a ceiling. */

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  clock.set('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock, config: { exchangeFailuresPerClient: { limit: 30, windowSeconds: 900 } } });
});

const wrong = async (): Promise<never> => {
  throw new DomainError('invalid-credentials', 'Unknown client or wrong secret');
};
const right = async () => 'token';
/** What the caller sees: the work's answer, or the error's code. */
const attempt = (address: string, clientId: string, work: () => Promise<string>) =>
  throttledAuthentication(deps, { address, clientId }, work).then(
    (r) => r,
    (e: DomainError) => e.code,
  );

it('of 30 concurrent wrong secrets for one client from one address, 10 are checked and the rest refused unchecked', async () => {
  let checked = 0;
  const results = await Promise.all(Array.from({ length: 30 }, () => attempt('198.51.100.1', 'cl_race', () => (checked++, wrong()))));
  expect(checked).toBe(10);
  expect(results.filter((r) => r === 'invalid-credentials')).toHaveLength(10);
  expect(results.filter((r) => r === 'rate-limited')).toHaveLength(20);
  // The owner from that address is refused too; from its own servers it signs in.
  expect(await attempt('198.51.100.1', 'cl_race', right)).toBe('rate-limited');
  expect(await attempt('203.0.113.9', 'cl_race', right)).toBe('token');
});

it('a right secret is not left counted: an integration signing in often from one address is never refused', async () => {
  for (let i = 0; i < 40; i++) expect(await attempt('198.51.100.2', 'cl_often', right)).toBe('token');
  const now = Math.floor(clock().getTime() / 1000);
  for (const [subject, window] of [
    [rateSubjects.authFailuresFromAddress('198.51.100.2'), 60],
    [rateSubjects.exchangeFailuresOfClientFromAddress('cl_often', '198.51.100.2'), 900],
    [rateSubjects.exchangeFailuresOfClient('cl_often'), 900],
  ] as const) {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: rateLimitKeys.window(subject, now - (now % window)) }));
    expect(Item?.request_count).toBe(0);
  }
});

it('locks a client id for everyone only past its ceiling (30 here, 100 by default), and refused attempts do not spend it', async () => {
  // Three addresses, ten failures each, and many refused attempts besides: the ceiling is reached by the 30 checked ones only.
  for (const address of ['192.0.2.1', '192.0.2.2']) {
    const results = await Promise.all(Array.from({ length: 25 }, () => attempt(address, 'cl_target', wrong)));
    expect(results.filter((r) => r === 'invalid-credentials')).toHaveLength(10);
  }
  // Below the ceiling, the owner still signs in from another address.
  expect(await attempt('203.0.113.10', 'cl_target', right)).toBe('token');
  for (let i = 0; i < 10; i++) expect(await attempt('192.0.2.3', 'cl_target', wrong)).toBe('invalid-credentials');
  // 30 failures: now refused from everywhere, the right secret too, until the 15-minute window ends.
  expect(await attempt('203.0.113.10', 'cl_target', right)).toBe('rate-limited');
  expect(await attempt('203.0.113.11', 'cl_target', right)).toBe('rate-limited');
  // Other clients are not touched.
  expect(await attempt('203.0.113.10', 'cl_other', right)).toBe('token');
  clock.advance(900);
  expect(await attempt('203.0.113.10', 'cl_target', right)).toBe('token');
});

it('an error that is not a wrong secret (our fault) is not counted', async () => {
  const broken = async (): Promise<never> => {
    throw new Error('DynamoDB is down');
  };
  for (let i = 0; i < 12; i++) expect(await attempt('198.51.100.3', 'cl_broken', broken)).toBe(undefined);
  expect(await attempt('198.51.100.3', 'cl_broken', right)).toBe('token');
});
