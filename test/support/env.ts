import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { loadConfig, type CoreConfig } from '../../functions/core/platform/config.js';
import { createDocumentClient, type Deps } from '../../functions/core/platform/deps.js';
import { ensureTable } from '../../lib/local/provision.js';

/** Test wiring to the emulators the global setup started: real connections, no SDK mocks. */

export function useEmulatorEnv(): void {
  const dynamo = process.env.TEST_DYNAMODB_ENDPOINT;
  const sqs = process.env.TEST_SQS_ENDPOINT;
  if (!dynamo || !sqs) throw new Error('The emulators are not running: run the tests through `npm test`');
  Object.assign(process.env, {
    AWS_REGION: 'eu-west-2',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo,
    AWS_ENDPOINT_URL_SQS: sqs,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
}

/** A clock the test moves by hand. */
export interface TestClock {
  (): Date;
  set(iso: string): void;
  advance(seconds: number): void;
}

export function testClock(start = '2026-11-21T10:00:00.000Z'): TestClock {
  let now = Date.parse(start);
  const clock = (() => new Date(now)) as TestClock;
  clock.set = (iso) => void (now = Date.parse(iso));
  clock.advance = (seconds) => void (now += seconds * 1000);
  return clock;
}

export const uniqueName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/**
 * A fresh table of the real shape, and deps over it. Without TTL: tests run
 * on clocks of their own, days from the real one, and DynamoDB Local's TTL
 * deletes by the real clock, so it removed locks and holds a test's clock
 * says are live (two holds on one seat, a booking's hold gone, seen under
 * load). The code never relies on TTL (`expires_at` against the clock
 * decides); the local stack, on the real clock, keeps it as deployed.
 */
export async function testDeps(options: { clock?: () => Date; config?: Partial<CoreConfig> } = {}): Promise<Deps> {
  useEmulatorEnv();
  const table = uniqueName('test');
  await ensureTable(new DynamoDBClient({}), table, { ttl: false });
  const config = { ...loadConfig({ TABLE_NAME: table }), ...options.config };
  return {
    db: createDocumentClient(),
    table,
    clock: options.clock ?? (() => new Date()),
    config,
  };
}
