import { endpointOf, readBatch, triage } from '../../functions/core/webhooks/delivery-steps.js';
import type { DeliveryConfig, DeliveryMessage, LaneQueues } from '../../functions/core/webhooks/delivery.js';
import type { EndpointItem } from '../../functions/core/webhooks/endpoints.js';
import { DEFER_SECONDS, MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH, type Lane } from '../../functions/core/webhooks/retry.js';
import type { QueueMessage } from '../../functions/core/platform/sqs.js';

const config: DeliveryConfig = { schedule: [5, 300, 1800], disableAfterSeconds: 86_400, policy: { allowHttp: false, allowLoopback: false } };
const queues = (lane: Lane): LaneQueues => ({ lane, queueUrl: `https://sqs.test/${lane}`, slowUrl: 'https://sqs.test/slow' });

const endpoint = (id: number, over: Partial<EndpointItem> = {}): EndpointItem =>
  ({
    id,
    client_id: 'acme',
    family: 'clinical-interview',
    url: 'https://hooks.test/',
    events: ['booking.created'],
    is_active: true,
    timeout_seconds: 10,
    consecutive_failures: 0,
    ...over,
  }) as EndpointItem;

const message = (endpointId: number, eventId: string, over: Partial<DeliveryMessage> = {}): DeliveryMessage => ({
  event: { id: eventId, type: 'booking.created', timestamp: '2026-11-28T12:00:00.000Z', client_id: 'acme', family: 'clinical-interview', data: {} },
  client_id: 'acme',
  family: 'clinical-interview',
  endpoint_id: endpointId,
  ...over,
});

const queued = (m: DeliveryMessage | string, id: string, receiveCount = 1): QueueMessage => ({
  id,
  body: typeof m === 'string' ? m : JSON.stringify(m),
  receiveCount,
  receiptHandle: `rh-${id}`,
});
const endpointsOf = (...items: [DeliveryMessage, EndpointItem][]) => new Map(items.map(([m, e]) => [endpointOf(m), e]));

describe('reading a delivery batch', () => {
  it('fails a message that is not JSON and keeps one copy of a delivery the batch holds twice', () => {
    const failed: string[] = [];
    const read = readBatch([queued(message(1, 'e1'), 'a'), queued('not json', 'b'), queued(message(1, 'e1'), 'c'), queued(message(2, 'e1'), 'd')], (q) =>
      failed.push(q.id),
    );
    expect(failed).toEqual(['b']);
    expect(read.map((r) => r.queued.id)).toEqual(['a', 'd']);
  });
});

describe('triage of a delivery batch', () => {
  it('attempts a healthy endpoint in the fast lane, numbering attempts from the attempts made before', () => {
    const m = message(1, 'e1', { attempts_before: 2 });
    const { due, moves, spent } = triage([{ queued: queued(m, 'a'), message: m }], endpointsOf([m, endpoint(1)]), queues('fast'), config);
    expect(due.map((d) => [d.queued.id, d.attempt])).toEqual([['a', 3]]);
    expect(moves).toEqual([]);
    expect(spent).toEqual([]);
  });

  it('moves a delivery to a failing or slow endpoint from the fast lane to the slow lane, unattempted, carrying its attempts', () => {
    const failing = message(1, 'e1');
    const slow = message(2, 'e2');
    const { due, moves } = triage(
      [
        { queued: queued(failing, 'a', 2), message: failing },
        { queued: queued(slow, 'b'), message: slow },
      ],
      endpointsOf([failing, endpoint(1, { consecutive_failures: 1 })], [slow, endpoint(2, { last_duration_ms: 5_000 })]),
      queues('fast'),
      config,
    );
    expect(due).toEqual([]);
    expect(moves.map((o) => [o.queued.id, o.url, o.delaySeconds, JSON.parse(o.body).attempts_before])).toEqual([
      ['a', 'https://sqs.test/slow', undefined, 1],
      ['b', 'https://sqs.test/slow', undefined, 0],
    ]);
  });

  it("defers deliveries to one endpoint beyond the lane's bound, in the same lane a little later", () => {
    const bound = MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH.slow;
    const batch = Array.from({ length: bound + 2 }, (_, n) => message(1, `e${n}`)).map((m, n) => ({ queued: queued(m, `m${n}`), message: m }));
    const other = message(2, 'x');
    const { due, moves } = triage(
      [...batch, { queued: queued(other, 'o'), message: other }],
      endpointsOf([batch[0]!.message, endpoint(1, { consecutive_failures: 3 })], [other, endpoint(2)]),
      queues('slow'),
      config,
    );
    expect(due.map((d) => d.queued.id)).toEqual([...batch.slice(0, bound).map((b) => b.queued.id), 'o']);
    expect(moves.map((o) => [o.queued.id, o.url, o.delaySeconds])).toEqual(
      batch.slice(bound).map((b) => [b.queued.id, 'https://sqs.test/slow', DEFER_SECONDS]),
    );
  });

  it('hands back a message whose last attempt is made, and drops one to an endpoint that is gone, switched off or unsubscribed', () => {
    const spentOne = message(1, 'e1', { attempts_before: 4 });
    const gone = message(9, 'e2');
    const off = message(2, 'e3');
    const unsubscribed = message(3, 'e4');
    const { due, moves, spent } = triage(
      [spentOne, gone, off, unsubscribed].map((m, n) => ({ queued: queued(m, `m${n}`), message: m })),
      endpointsOf([spentOne, endpoint(1)], [off, endpoint(2, { is_active: false })], [unsubscribed, endpoint(3, { events: ['booking.confirmed'] })]),
      queues('slow'),
      config,
    );
    expect(spent.map((q) => q.id)).toEqual(['m0']);
    expect(due).toEqual([]);
    expect(moves).toEqual([]);
  });
});
