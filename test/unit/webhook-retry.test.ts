import { deliveryConfigFromEnv, laneOf } from '../../functions/core/webhooks/delivery.js';
import type { EndpointItem } from '../../functions/core/webhooks/endpoints.js';
import { FAST_LANE_BUDGET_SECONDS, retryDelay, RETRY_SCHEDULE } from '../../functions/core/webhooks/retry.js';

describe('the webhook retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h unless configured', () => {
    expect(RETRY_SCHEDULE).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(deliveryConfigFromEnv({}).schedule).toEqual(RETRY_SCHEDULE);
    expect(deliveryConfigFromEnv({ WEBHOOK_RETRY_SCHEDULE: '1,2,3' }).schedule).toEqual([1, 2, 3]);
  });

  it('refuses a configured step that is not a number of seconds SQS can wait', () => {
    expect(() => deliveryConfigFromEnv({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow('WEBHOOK_RETRY_SCHEDULE must be seconds from 0 to 43200, got "5,soon"');
    expect(() => deliveryConfigFromEnv({ WEBHOOK_RETRY_SCHEDULE: '5,-1' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => deliveryConfigFromEnv({ WEBHOOK_RETRY_SCHEDULE: '43201' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(deliveryConfigFromEnv({ WEBHOOK_RETRY_SCHEDULE: '0,43200' }).schedule).toEqual([0, 43200]);
    expect(deliveryConfigFromEnv({}).disableAfterSeconds).toBe(5 * 86_400);
    expect(deliveryConfigFromEnv({ WEBHOOK_DISABLE_AFTER_SECONDS: '3600' }).disableAfterSeconds).toBe(3600);
    expect(() => deliveryConfigFromEnv({ WEBHOOK_DISABLE_AFTER_SECONDS: 'soon' })).toThrow(
      'WEBHOOK_DISABLE_AFTER_SECONDS must be a positive whole number of seconds, got "soon"',
    );
  });
});

describe('the delay before a retry', () => {
  const schedule = RETRY_SCHEDULE;

  it('is the step of the attempt that failed, ±20 %, rounded to whole seconds', () => {
    expect(retryDelay(schedule, 1, undefined, () => 0)).toBe(4);
    expect(retryDelay(schedule, 1, undefined, () => 0.5)).toBe(5);
    expect(retryDelay(schedule, 1, undefined, () => 0.999)).toBe(6);
    expect(retryDelay(schedule, 2, undefined, () => 0)).toBe(240);
    expect(retryDelay(schedule, 2, undefined, () => 1)).toBe(360);
    expect(retryDelay(schedule, 4, undefined, () => 0.25)).toBe(6480);
  });

  it('spreads retries over the whole ±20 % band', () => {
    const delays = Array.from({ length: 500 }, () => retryDelay(schedule, 3));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1440);
    expect(Math.max(...delays)).toBeLessThanOrEqual(2160);
    expect(new Set(delays).size).toBeGreaterThan(100);
  });

  it("honours the receiver's Retry-After, kept within [step, 2×step]", () => {
    expect(retryDelay(schedule, 2, 10)).toBe(300);
    expect(retryDelay(schedule, 2, 0)).toBe(300);
    expect(retryDelay(schedule, 2, 450)).toBe(450);
    expect(retryDelay(schedule, 2, 600)).toBe(600);
    expect(retryDelay(schedule, 2, 99_999)).toBe(600);
    // Retry-After is not jittered: the receiver asked for that moment.
    expect(retryDelay(schedule, 2, 450, () => 0)).toBe(450);
  });

  it('never waits longer than SQS can hide a message (12 hours)', () => {
    expect(retryDelay(schedule, 7, 99_999)).toBe(43_200);
    expect(retryDelay(schedule, 6, undefined, () => 1)).toBe(43_200);
    expect(retryDelay([40_000], 1, undefined, () => 1)).toBe(43_200);
  });
});

describe('the lane of an endpoint', () => {
  const endpoint = (item: Partial<EndpointItem>) => ({ consecutive_failures: 0, ...item }) as EndpointItem;
  const budgetMs = FAST_LANE_BUDGET_SECONDS * 1000;

  it('is fast until an attempt fails, and slow until one succeeds', () => {
    expect(laneOf(endpoint({}))).toBe('fast');
    expect(laneOf(endpoint({ last_duration_ms: 120 }))).toBe('fast');
    expect(laneOf(endpoint({ consecutive_failures: 1, last_duration_ms: 120 }))).toBe('slow');
  });

  it("stays slow after a success that took longer than the fast lane's budget, and is fast again after one within it", () => {
    expect(laneOf(endpoint({ last_duration_ms: budgetMs + 500 }))).toBe('slow');
    expect(laneOf(endpoint({ last_duration_ms: budgetMs }))).toBe('slow');
    expect(laneOf(endpoint({ last_duration_ms: budgetMs - 1 }))).toBe('fast');
  });
});
