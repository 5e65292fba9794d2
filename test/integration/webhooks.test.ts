import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Deps } from '../../functions/core/platform/deps.js';
import type { EventKind } from '../../functions/core/events/kinds.js';
import type { DomainEvent, OutboxItem } from '../../functions/core/events/outbox.js';
import { relayOutbox } from '../../functions/core/events/relay.js';
import { newEventId } from '../../functions/core/events/outbox.js';
import { verify } from '../../functions/core/webhooks/signing.js';
import { createSqsClient } from '../../functions/core/platform/sqs.js';
import type { UrlPolicy } from '../../functions/core/webhooks/url-guard.js';
import { attemptDelivery } from '../../functions/core/webhooks/attempt.js';
import { FAST_LANE_BUDGET_SECONDS } from '../../functions/core/webhooks/retry.js';
import { deliveryLog, laneOf, type DeliveryConfig, type DeliveryMessage, type LaneQueues, type Lanes } from '../../functions/core/webhooks/delivery.js';
import { deliveryHandler, fanOutHandler } from '../../functions/consumers/_webhooks.js';
import { createEndpoint, getEndpointItem, rotateSecret, updateEndpoint, webhookKeys, type EndpointItem } from '../../functions/core/webhooks/endpoints.js';
import { startPoller, type Poller } from '../../lib/local/pollers.js';
import { ensureQueues, type LocalQueue } from '../../lib/local/provision.js';
import { uniqueName, testClock, testDeps, type TestClock } from '../support/env.js';
import { newClient } from '../support/kit.js';
import { setClientEnabled } from '../../functions/core/access/clients.js';
import { eventually } from '../support/eventually.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const LOCAL: UrlPolicy = { allowHttp: true, allowLoopback: true };
const CLOUD: UrlPolicy = { allowHttp: false, allowLoopback: false };

let deps: Deps;
let clock: TestClock;
let sqs: SQSClient;
let receiver: Receiver;
let queues: { events: LocalQueue; deliveries: LocalQueue; slow: LocalQueue };
/** The lanes' URLs, and what each lane's worker sends to. */
let lanes: Lanes;
const laneQueues = (lane: keyof Lanes): LaneQueues => ({ lane, queueUrl: lanes[lane], slowUrl: lanes.slow });
let pollers: Poller[] = [];
const config: DeliveryConfig = { schedule: [1, 1, 1], disableAfterSeconds: 5 * 86_400, policy: LOCAL };

beforeAll(async () => {
  clock = testClock(new Date().toISOString());
  deps = await testDeps({ clock });
  sqs = createSqsClient();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});
/**
 * Each test gets its own queues. A stopped poller's long poll stays open on
 * the server until its wait ends and may still take a message that arrives
 * meanwhile, which would then reach the next test one receive late.
 */
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.script();
  const lane = { visibilityTimeoutSeconds: 2, maxReceiveCount: config.schedule.length + 1 };
  const all = await ensureQueues(sqs, uniqueName('wh'), { events: { visibilityTimeoutSeconds: 1 }, deliveries: lane, deliveries_slow: lane });
  queues = {
    events: all.find((q) => q.id === 'events')!,
    deliveries: all.find((q) => q.id === 'deliveries')!,
    slow: all.find((q) => q.id === 'deliveries_slow')!,
  };
  lanes = { fast: queues.deliveries.url, slow: queues.slow.url };
});
afterEach(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  pollers = [];
});

/** The pipeline after the outbox: fan-out and both delivery lanes, each on its real queue with its poller. */
function runWorkers(fanOut = fanOutHandler(deps, sqs, lanes)) {
  pollers.push(
    startPoller({ sqs, queueUrl: queues.events.url, queueArn: queues.events.arn, batchSize: 10, worker: fanOut, waitSeconds: 1 }),
    startPoller({
      sqs,
      queueUrl: queues.deliveries.url,
      queueArn: queues.deliveries.arn,
      batchSize: 10,
      worker: deliveryHandler(deps, sqs, laneQueues('fast'), config),
      waitSeconds: 1,
    }),
    startPoller({
      sqs,
      queueUrl: queues.slow.url,
      queueArn: queues.slow.arn,
      batchSize: 10,
      worker: deliveryHandler(deps, sqs, laneQueues('slow'), config),
      waitSeconds: 1,
    }),
  );
}

async function publish(clientId: string, type: EventKind, data: unknown = { id: 1 }): Promise<DomainEvent> {
  const event: DomainEvent = { id: newEventId(), type, timestamp: clock().toISOString(), client_id: clientId, family: 'clinical-interview', data };
  await sqs.send(new SendMessageCommand({ QueueUrl: queues.events.url, MessageBody: JSON.stringify(event) }));
  return event;
}

async function endpoint(events = ['booking.created'], timeout_seconds = 5) {
  const client = await newClient(deps);
  const created = await createEndpoint(deps, client, 'clinical-interview', { name: 'Receiver', url: receiver.url, events, timeout_seconds }, LOCAL);
  return { client, id: created.id, secret: created.secret };
}

const endpointItem = (client: string, id: number) => getEndpointItem(deps, client, 'clinical-interview', id) as Promise<EndpointItem>;
const logOf = async (client: string, id: number) => (await deliveryLog(deps, client, 'clinical-interview', id, { limit: 50 })).data.reverse();
/** The endpoint's log once it holds `count` attempts. */
const logOnce = (client: string, id: number, count: number) =>
  eventually(
    async () => {
      const log = await logOf(client, id);
      return log.length >= count && log;
    },
    { what: `${count} logged attempts` },
  );

/**
 * The pipeline has finished: nothing waits or is in flight on either queue.
 * Read in pipeline order: fan-out queues a delivery before its event is deleted.
 */
async function drained() {
  await eventually(
    async () => {
      for (const queue of [queues.events, queues.deliveries, queues.slow]) {
        const { Attributes = {} } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queue.url,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
          }),
        );
        if (Object.values(Attributes).some((n) => Number(n) > 0)) return false;
      }
      return true;
    },
    { what: 'the queues to drain' },
  );
}

describe('delivery', () => {
  it('POSTs a Standard Webhooks signed body that verifies with the endpoint secret', async () => {
    const { client, id, secret } = await endpoint();
    runWorkers();
    const event = await publish(client, 'booking.created', { id: 42, booking_status: 'booked' });
    const [got] = await receiver.waitFor(1);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-id']).toBe(event.id);
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(got!.body)).toEqual({ type: 'booking.created', timestamp: event.timestamp, data: { id: 42, booking_status: 'booked' } });
    const signed = {
      id: String(got!.headers['webhook-id']),
      timestamp: String(got!.headers['webhook-timestamp']),
      signature: String(got!.headers['webhook-signature']),
    };
    expect(verify(secret, signed, got!.body)).toBe(true);
    expect(verify(secret, signed, got!.body.replace('42', '43'))).toBe(false);
    expect(verify('whsec_' + Buffer.alloc(32).toString('base64'), signed, got!.body)).toBe(false);
    await logOnce(client, id, 1);
    expect(await endpointItem(client, id)).toMatchObject({ last_response_code: 200, consecutive_failures: 0 });
  });

  it('retries a 500 with the same webhook-id, then records success and resets the counters', async () => {
    const { client, id } = await endpoint();
    receiver.script({ status: 500, body: 'down' });
    runWorkers();
    const event = await publish(client, 'booking.created');
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(got[1]!.headers['webhook-timestamp']).toBeDefined();
    const log = await logOnce(client, id, 2);
    expect(log.map((l) => [l.attempt, l.outcome, l.response_status])).toEqual([
      [1, 'failed', 500],
      [2, 'delivered', 200],
    ]);
    expect(log[0]!.next_attempt_at).toEqual(expect.any(String));
    expect(log[0]).not.toHaveProperty('response_excerpt');
    expect(await endpointItem(client, id)).toMatchObject({ last_response_code: 200, consecutive_failures: 0 });
  });

  it('gives up on a receiver that hangs past timeout_seconds, and tries again', async () => {
    const { client, id } = await endpoint(['booking.created'], 1);
    receiver.script('hang');
    runWorkers();
    await publish(client, 'booking.created');
    await receiver.waitFor(2);
    const log = await logOnce(client, id, 2);
    expect(log[0]).toMatchObject({ attempt: 1, outcome: 'failed', response_status: null, error: 'timed out after 1 s' });
    expect(log[0]!.duration_ms).toBeGreaterThanOrEqual(950);
    expect(log[1]).toMatchObject({ attempt: 2, outcome: 'delivered' });
  });

  it('sends nothing to an inactive endpoint or for an event it did not subscribe to', async () => {
    const { client, id } = await endpoint(['booking.cancelled']);
    const other = await endpoint(['booking.created']);
    await updateEndpoint(deps, other.client, 'clinical-interview', other.id, { events: ['booking.created'], is_active: false }, LOCAL);
    runWorkers();
    await publish(client, 'booking.created');
    await publish(other.client, 'booking.created');
    const marker = await publish(client, 'booking.cancelled');
    await drained();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([marker.id]);
    expect((await logOf(client, id)).map((l) => l.event_type)).toEqual(['booking.cancelled']);
  });

  it('does not follow redirects: a 302 is a failure', async () => {
    const { client, id } = await endpoint();
    receiver.script({ status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    runWorkers();
    await publish(client, 'booking.created');
    const got = await receiver.waitFor(2);
    expect(got.every((r) => r.path === '/hook')).toBe(true);
    expect((await logOnce(client, id, 1))[0]).toMatchObject({
      outcome: 'failed',
      response_status: 302,
      error: expect.stringMatching(/redirect .* not followed/),
    });
  });

  it('switches the endpoint off at once on 410 Gone', async () => {
    const { client, id } = await endpoint();
    receiver.script({ status: 410 });
    runWorkers();
    await publish(client, 'booking.created');
    await drained();
    expect(await endpointItem(client, id)).toMatchObject({ is_active: false, last_response_code: 410 });
    await publish(client, 'booking.created');
    await drained();
    expect(receiver.received).toHaveLength(1);
  });

  it('moves a message that keeps failing to the dead-letter queue after the schedule, and the log says so', async () => {
    const { client, id } = await endpoint();
    receiver.script(...Array(10).fill({ status: 503 }));
    runWorkers();
    const event = await publish(client, 'booking.created');
    await receiver.waitFor(config.schedule.length + 1, 30_000);
    // The first attempt is made in the fast lane, the retries in the slow one, whose dead-letter queue keeps the message.
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queues.slow.dlqUrl, WaitTimeSeconds: 10 }));
    expect(dead.Messages?.map((m) => JSON.parse(m.Body!).event.id)).toEqual([event.id]);
    expect(receiver.received).toHaveLength(config.schedule.length + 1);
    const log = await logOf(client, id);
    expect(log.map((l) => l.outcome)).toEqual(['failed', 'failed', 'failed', 'dead_lettered']);
    expect(log.at(-1)!.next_attempt_at).toBeNull();
    expect(await endpointItem(client, id)).toMatchObject({ consecutive_failures: 4, is_active: true });
  }, 60_000);

  it('still delivers an event whose fan-out crashed, once the worker runs again', async () => {
    const { client } = await endpoint();
    const real = fanOutHandler(deps, sqs, lanes);
    let calls = 0;
    const crashingOnce = async (event: SQSEvent) => {
      if (++calls === 1) throw new Error('fan-out worker crashed');
      return real(event);
    };
    const event = await publish(client, 'booking.created');
    runWorkers(crashingOnce);
    await drained();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event.id]);
  });
});

describe('batches', () => {
  const deliveryOf = (client: string, id: number, data: unknown = {}): DeliveryMessage => ({
    event: { id: newEventId(), type: 'booking.created', timestamp: clock().toISOString(), client_id: client, family: 'clinical-interview', data },
    client_id: client,
    family: 'clinical-interview',
    endpoint_id: id,
  });
  const batchOf = (...messages: DeliveryMessage[]) =>
    ({
      Records: messages.map((m, n) => ({
        messageId: `m${n}`,
        receiptHandle: 'not-a-real-handle',
        body: JSON.stringify(m),
        attributes: { ApproximateReceiveCount: '1' },
      })),
    }) as unknown as SQSEvent;
  const failedIds = (response: SQSBatchResponse) => response.batchItemFailures.map((f) => f.itemIdentifier).sort();

  it('delivers a batch that spans endpoints and logs every attempt', async () => {
    const a = await endpoint();
    const b = await endpoint();
    const messages = [deliveryOf(a.client, a.id), deliveryOf(b.client, b.id), deliveryOf(a.client, a.id), deliveryOf(a.client, a.id)];
    const response = await deliveryHandler(deps, sqs, laneQueues('fast'), config)(batchOf(...messages));
    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(messages.map((m) => m.event.id).sort());
    expect((await logOf(a.client, a.id)).map((l) => l.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    expect((await logOf(b.client, b.id)).map((l) => l.event_id)).toEqual([messages[1]!.event.id]);
    expect(await endpointItem(a.client, a.id)).toMatchObject({ consecutive_failures: 0, last_response_code: 200, last_delivered_at: expect.any(String) });
  });

  it('counts every failed attempt of a batch in the run of failures, and reports each for retry', async () => {
    const a = await endpoint();
    receiver.script(...Array(3).fill({ status: 503 }));
    const response = await deliveryHandler(
      deps,
      sqs,
      laneQueues('fast'),
      config,
    )(batchOf(deliveryOf(a.client, a.id), deliveryOf(a.client, a.id), deliveryOf(a.client, a.id)));
    expect(failedIds(response)).toEqual(['m0', 'm1', 'm2']);
    expect(await endpointItem(a.client, a.id)).toMatchObject({
      consecutive_failures: 3,
      last_response_code: 503,
      failing_since: clock().toISOString(),
      is_active: true,
    });
    const log = await logOf(a.client, a.id);
    expect(log.map((l) => [l.outcome, l.response_status])).toEqual(Array(3).fill(['failed', 503]));
    expect(log.every((l) => typeof l.next_attempt_at === 'string')).toBe(true);
  });

  it('sends a delivery the fan-out queued twice in one batch once', async () => {
    const a = await endpoint();
    const twice = deliveryOf(a.client, a.id);
    const response = await deliveryHandler(deps, sqs, laneQueues('fast'), config)(batchOf(twice, twice));
    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([twice.event.id]);
    expect(await logOf(a.client, a.id)).toHaveLength(1);
  });

  it('fans a batch out per client: each endpoint gets exactly the events it subscribed to', async () => {
    const fanQueues = await ensureQueues(sqs, uniqueName('fan'));
    const deliveries = fanQueues.find((q) => q.id === 'deliveries')!;
    const a = await endpoint(['booking.created']);
    const aCancelled = await createEndpoint(
      deps,
      a.client,
      'clinical-interview',
      { name: 'Cancellations', url: receiver.url, events: ['booking.cancelled'] },
      LOCAL,
    );
    const b = await endpoint(['booking.created', 'booking.cancelled']);
    const event = (client: string, type: EventKind): DomainEvent => ({
      id: newEventId(),
      type,
      timestamp: clock().toISOString(),
      client_id: client,
      family: 'clinical-interview',
      data: {},
    });
    const events = [
      event(a.client, 'booking.created'),
      event(b.client, 'booking.cancelled'),
      event(a.client, 'booking.cancelled'),
      event(a.client, 'booking.rescheduled'),
    ];
    const records = events.map((e, n) => ({ messageId: `e${n}`, body: JSON.stringify(e) }));
    const response = await fanOutHandler(deps, sqs, { fast: deliveries.url, slow: fanQueues.find((q) => q.id === 'deliveries_slow')!.url })({
      Records: records,
    } as unknown as SQSEvent);
    expect(response.batchItemFailures).toEqual([]);
    const queued: DeliveryMessage[] = [];
    for (let i = 0; i < 5 && queued.length < 3; i++) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: deliveries.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      queued.push(...Messages.map((m) => JSON.parse(m.Body!) as DeliveryMessage));
    }
    expect(queued.map((m) => [m.event.id, m.endpoint_id, m.client_id]).sort()).toEqual(
      [
        [events[0]!.id, a.id, a.client],
        [events[1]!.id, b.id, b.client],
        [events[2]!.id, aCancelled.id, a.client],
      ].sort(),
    );
  });
});

describe('broadcast events', () => {
  it("go to every enabled client's endpoints subscribed to them, whoever caused them, and to no one else", async () => {
    const own = await testDeps({ clock });
    const fanQueues = await ensureQueues(sqs, uniqueName('cast'));
    const deliveries = fanQueues.find((q) => q.id === 'deliveries')!;
    const subscribe = async (events: string[]) => {
      const client = await newClient(own);
      const { id } = await createEndpoint(own, client, 'practical-training', { name: 'Seats', url: receiver.url, events: events }, LOCAL);
      return { client, id };
    };
    const causer = await subscribe(['training_event.seats_low']);
    const other = await subscribe(['booking.created', 'training_event.seats_low']);
    await subscribe(['booking.created']);
    const disabled = await subscribe(['training_event.seats_low']);
    await setClientEnabled(own, disabled.client, false);
    // The same client's clinical endpoints hear nothing of another family's broadcast.
    await createEndpoint(own, other.client, 'clinical-interview', { name: 'Clinical', url: receiver.url, events: ['booking.created'] }, LOCAL);
    const event: DomainEvent = {
      id: newEventId(),
      type: 'training_event.seats_low',
      timestamp: clock().toISOString(),
      client_id: causer.client,
      family: 'practical-training',
      data: { id: 7, seats_available: 2 },
    };
    const response = await fanOutHandler(own, sqs, { fast: deliveries.url, slow: fanQueues.find((q) => q.id === 'deliveries_slow')!.url })({
      Records: [{ messageId: 'e0', body: JSON.stringify(event) }],
    } as unknown as SQSEvent);
    expect(response.batchItemFailures).toEqual([]);
    const queued: DeliveryMessage[] = [];
    for (let i = 0; i < 5 && queued.length < 3; i++) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: deliveries.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      queued.push(...Messages.map((m) => JSON.parse(m.Body!) as DeliveryMessage));
    }
    expect(queued.map((m) => [m.client_id, m.endpoint_id, m.event.id, m.event.client_id]).sort()).toEqual(
      [
        [causer.client, causer.id, event.id, causer.client],
        [other.client, other.id, event.id, other.client],
      ].sort(),
    );
  });
});

describe('lanes and the per-endpoint bound', () => {
  const messageFor = (client: string, id: number): DeliveryMessage => ({
    event: { id: newEventId(), type: 'booking.created', timestamp: clock().toISOString(), client_id: client, family: 'clinical-interview', data: {} },
    client_id: client,
    family: 'clinical-interview',
    endpoint_id: id,
  });
  /** Up to `count` messages from a queue, read and left to reappear (the tests that read them stop there). */
  async function read(url: string, count: number): Promise<DeliveryMessage[]> {
    const got: DeliveryMessage[] = [];
    for (let i = 0; i < 10 && got.length < count; i++) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      got.push(...Messages.map((m) => JSON.parse(m.Body!) as DeliveryMessage));
    }
    return got;
  }
  const failOnce = async () => {
    const failing = await endpoint();
    receiver.script({ status: 500 });
    await deliveryHandler(
      deps,
      sqs,
      laneQueues('fast'),
      config,
    )({
      Records: [
        {
          messageId: 'm',
          receiptHandle: 'not-a-real-handle',
          body: JSON.stringify(messageFor(failing.client, failing.id)),
          attributes: { ApproximateReceiveCount: '1' },
        },
      ],
    } as unknown as SQSEvent);
    receiver.received.length = 0;
    expect(await endpointItem(failing.client, failing.id)).toMatchObject({ consecutive_failures: 1 });
    return failing;
  };

  it('fans deliveries to an endpoint whose latest attempt failed out to the slow lane, the others to the fast lane', async () => {
    const failing = await failOnce();
    const healthy = await endpoint();
    const events = [failing.client, healthy.client].map((client) => ({ messageId: client, body: JSON.stringify(messageFor(client, 0).event) }));
    expect((await fanOutHandler(deps, sqs, lanes)({ Records: events } as unknown as SQSEvent)).batchItemFailures).toEqual([]);
    expect((await read(lanes.slow, 1)).map((m) => m.endpoint_id)).toEqual([failing.id]);
    expect((await read(lanes.fast, 1)).map((m) => [m.client_id, m.endpoint_id])).toEqual([[healthy.client, healthy.id]]);
  });

  it('moves a delivery to a failing endpoint from the fast lane to the slow one unattempted, keeping its attempt count', async () => {
    const failing = await failOnce();
    const retry = messageFor(failing.client, failing.id);
    // Its retry, received a second time in the fast lane.
    await sqs.send(new SendMessageCommand({ QueueUrl: lanes.fast, MessageBody: JSON.stringify(retry) }));
    const [first] = await read(lanes.fast, 1);
    expect(first).toEqual(retry);
    pollers.push(
      startPoller({
        sqs,
        queueUrl: queues.deliveries.url,
        queueArn: queues.deliveries.arn,
        batchSize: 10,
        worker: deliveryHandler(deps, sqs, laneQueues('fast'), config),
        waitSeconds: 1,
      }),
    );
    const depth = async (url: string) =>
      Number(
        (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }))).Attributes
          ?.ApproximateNumberOfMessages,
      );
    await eventually(async () => (await depth(lanes.slow)) === 1, { what: 'the delivery in the slow lane' });
    expect(receiver.received).toHaveLength(0);

    // Delivered from the slow lane as this event's attempt 2, the schedule's second step.
    runWorkers();
    const [got] = await receiver.waitFor(1);
    expect(got!.headers['webhook-id']).toBe(retry.event.id);
    const log = await logOnce(failing.client, failing.id, 2);
    // The test clock stands still: both attempts have one time, so find this event's by id.
    expect(log.find((l) => l.event_id === retry.event.id)).toMatchObject({ attempt: 2, outcome: 'delivered' });
    expect(await endpointItem(failing.client, failing.id)).toMatchObject({ consecutive_failures: 0 });
  });

  it('in the fast lane, delivers a whole batch to one endpoint at once', async () => {
    const a = await endpoint();
    const toA = Array.from({ length: 10 }, () => messageFor(a.client, a.id));
    const records = toA.map((m, n) => ({
      messageId: `f${n}`,
      receiptHandle: 'not-a-real-handle',
      body: JSON.stringify(m),
      attributes: { ApproximateReceiveCount: '1' },
    }));
    const response = await deliveryHandler(deps, sqs, laneQueues('fast'), config)({ Records: records } as unknown as SQSEvent);
    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(toA.map((m) => m.event.id).sort());
  });

  it("in the fast lane, gives up on an attempt at the lane's budget as a failure, so the endpoint's deliveries go through the slow lane", async () => {
    const silent = await startReceiver();
    silent.script('hang');
    try {
      const client = await newClient(deps);
      const hangs = await createEndpoint(
        deps,
        client,
        'clinical-interview',
        { name: 'Silent', url: silent.url, events: ['booking.created'], timeout_seconds: 30 },
        LOCAL,
      );
      const healthy = await endpoint();
      const records = [messageFor(client, hangs.id), messageFor(healthy.client, healthy.id)].map((m, n) => ({
        messageId: `m${n}`,
        receiptHandle: 'not-a-real-handle',
        body: JSON.stringify(m),
        attributes: { ApproximateReceiveCount: '1' },
      }));
      const started = Date.now();
      const response = await deliveryHandler(deps, sqs, laneQueues('fast'), config)({ Records: records } as unknown as SQSEvent);
      expect(Date.now() - started).toBeLessThan((FAST_LANE_BUDGET_SECONDS + 2) * 1000);
      expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
      const [given] = await logOf(client, hangs.id);
      expect(given).toMatchObject({
        attempt: 1,
        outcome: 'failed',
        response_status: null,
        error: `no answer within ${FAST_LANE_BUDGET_SECONDS} s, the fast lane's budget`,
      });
      expect(given!.duration_ms).toBeGreaterThanOrEqual(FAST_LANE_BUDGET_SECONDS * 1000 - 50);
      const item = await endpointItem(client, hangs.id);
      expect(item).toMatchObject({ consecutive_failures: 1 });
      expect(laneOf(item)).toBe('slow');
      expect(await logOf(healthy.client, healthy.id)).toEqual([expect.objectContaining({ outcome: 'delivered' })]);
      expect(laneOf(await endpointItem(healthy.client, healthy.id))).toBe('fast');
    } finally {
      await silent.close();
    }
  });

  it("records each endpoint's attempts as soon as they end, whatever another endpoint's in the batch are waiting for", async () => {
    const silent = await startReceiver();
    silent.script('hang');
    try {
      const client = await newClient(deps);
      const hangs = await createEndpoint(
        deps,
        client,
        'clinical-interview',
        { name: 'Silent', url: silent.url, events: ['booking.created'], timeout_seconds: 4 },
        LOCAL,
      );
      const healthy = await endpoint();
      const records = [messageFor(client, hangs.id), messageFor(healthy.client, healthy.id)].map((m, n) => ({
        messageId: `m${n}`,
        receiptHandle: 'not-a-real-handle',
        body: JSON.stringify(m),
        attributes: { ApproximateReceiveCount: '1' },
      }));
      // The slow lane waits out the whole timeout; the healthy endpoint's attempt is recorded long before.
      let done = false;
      const handled = deliveryHandler(deps, sqs, laneQueues('slow'), config)({ Records: records } as unknown as SQSEvent).finally(() => (done = true));
      await logOnce(healthy.client, healthy.id, 1);
      expect(await endpointItem(healthy.client, healthy.id)).toMatchObject({ consecutive_failures: 0, last_response_code: 200 });
      expect(done).toBe(false);
      expect((await handled).batchItemFailures).toEqual([{ itemIdentifier: 'm0' }]);
      expect((await logOf(client, hangs.id))[0]).toMatchObject({ outcome: 'failed', error: 'timed out after 4 s' });
    } finally {
      await silent.close();
    }
  });

  it('in the slow lane, attempts at most three deliveries to one endpoint per batch and queues the rest again, as first attempts', async () => {
    const a = await endpoint();
    const b = await endpoint();
    const toA = Array.from({ length: 5 }, () => messageFor(a.client, a.id));
    const toB = messageFor(b.client, b.id);
    const records = [...toA, toB].map((m, n) => ({
      messageId: `m${n}`,
      receiptHandle: 'not-a-real-handle',
      body: JSON.stringify(m),
      attributes: { ApproximateReceiveCount: '1' },
    }));
    const response = await deliveryHandler(deps, sqs, laneQueues('slow'), config)({ Records: records } as unknown as SQSEvent);
    expect(response.batchItemFailures).toEqual([]);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual([...toA.slice(0, 3), toB].map((m) => m.event.id).sort());

    runWorkers();
    await receiver.waitFor(6);
    expect(
      receiver.received
        .slice(4)
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual(
      toA
        .slice(3)
        .map((m) => m.event.id)
        .sort(),
    );
    const log = await logOnce(a.client, a.id, 5);
    expect(log.map((l) => [l.attempt, l.outcome])).toEqual(Array(5).fill([1, 'delivered']));
  });
});

describe('the outbox relay', () => {
  const item = (kind: OutboxItem['kind'], n: number): OutboxItem => ({
    pk: 'OUTBOX#0',
    sk: `s${n}`,
    entity: 'outbox',
    kind,
    payload: JSON.stringify({ id: `${kind}-${n}` }),
    created_at: clock().toISOString(),
    ttl: 0,
  });

  it('reports the items it could not queue, and queues the rest', async () => {
    const relayQueues = await ensureQueues(sqs, uniqueName('relay'));
    const events = relayQueues.find((q) => q.id === 'events')!;
    const items = [item('event', 1), item('email', 2), item('event', 3), ...Array.from({ length: 11 }, (_, n) => item('event', 10 + n))];
    const { notQueued, error } = await relayOutbox(items, {
      sqs,
      queueUrls: {
        event: events.url,
        email: `${events.url}-missing`,
        job: `${events.url}-missing`,
        'subject-job': `${events.url}-missing`,
        check: `${events.url}-missing`,
        delivery: `${events.url}-missing`,
        refund: `${events.url}-missing`,
      },
    });
    expect(notQueued).toEqual([items[1]]);
    expect(error).toBeDefined();
    const ids: string[] = [];
    for (let i = 0; i < 10 && ids.length < 13; i++) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: events.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      ids.push(...Messages.map((m) => JSON.parse(m.Body!).id as string));
    }
    expect(ids.sort()).toEqual(
      items
        .filter((i) => i.kind === 'event')
        .map((i) => JSON.parse(i.payload).id)
        .sort(),
    );
  });

  it('has the stream retry from the first record it could not queue', async () => {
    const relayQueues = await ensureQueues(sqs, uniqueName('stream'));
    process.env.QUEUE_URL_EVENTS = relayQueues.find((q) => q.id === 'events')!.url;
    process.env.QUEUE_URL_EMAILS = `${process.env.QUEUE_URL_EVENTS}-missing`;
    process.env.QUEUE_URL_JOBS = `${process.env.QUEUE_URL_EVENTS}-missing`;
    process.env.QUEUE_URL_SUBJECT_JOBS = `${process.env.QUEUE_URL_EVENTS}-missing`;
    process.env.QUEUE_URL_CHECKS = `${process.env.QUEUE_URL_EVENTS}-missing`;
    process.env.QUEUE_URL_DELIVERIES = `${process.env.QUEUE_URL_EVENTS}-missing`;
    process.env.QUEUE_URL_REFUNDS = `${process.env.QUEUE_URL_EVENTS}-missing`;
    const { handler } = await import('../../functions/consumers/outbox-stream.js');
    const records = [item('event', 1), item('email', 2), item('event', 3), item('email', 4)].map((i, n) => ({
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: `${100 + n}`, NewImage: marshall(i) },
    }));
    const response = await handler({ Records: records } as unknown as DynamoDBStreamEvent);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: '101' }]);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const { client, id, secret: oldSecret } = await endpoint();
    const rotated = await rotateSecret(deps, client, 'clinical-interview', id);
    expect(rotated.secret).not.toBe(oldSecret);
    const item = await endpointItem(client, id);
    const event: DomainEvent = {
      id: newEventId(),
      type: 'booking.created',
      timestamp: clock().toISOString(),
      client_id: client,
      family: 'clinical-interview',
      data: {},
    };

    await attemptDelivery(item, event, clock(), LOCAL);
    let got = receiver.received.at(-1)!;
    const signed = () => ({
      id: String(got.headers['webhook-id']),
      timestamp: String(got.headers['webhook-timestamp']),
      signature: String(got.headers['webhook-signature']),
    });
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, signed(), got.body)).toBe(true);
    expect(verify(oldSecret, signed(), got.body)).toBe(true);

    clock.advance(24 * 3600);
    await attemptDelivery(item, event, clock(), LOCAL);
    got = receiver.received.at(-1)!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.secret, signed(), got.body)).toBe(true);
    expect(verify(oldSecret, signed(), got.body)).toBe(false);
    clock.set(new Date().toISOString());
  });
});

describe('switching off after five days of failures', () => {
  it('keeps the endpoint on through a short run of failures and switches it off when the run has lasted five days', async () => {
    const { client, id } = await endpoint();
    receiver.script(...Array(10).fill({ status: 500 }));
    // A failing endpoint is delivered from the slow lane.
    const handler = deliveryHandler(deps, sqs, laneQueues('slow'), { ...config, schedule: [3600, 3600] });
    const message = (n: number) => ({
      messageId: `m${n}`,
      receiptHandle: 'not-a-real-handle',
      body: JSON.stringify({
        event: { id: newEventId(), type: 'booking.created', timestamp: clock().toISOString(), client_id: client, family: 'clinical-interview', data: {} },
        client_id: client,
        family: 'clinical-interview',
        endpoint_id: id,
      }),
      attributes: { ApproximateReceiveCount: '1' },
    });
    const start = clock().toISOString();
    // The visibility change fails (the receipt handle is not real), so the record is reported failed: bookkeeping is what we look at.
    await handler({ Records: [message(1)] } as unknown as SQSEvent);
    expect(await endpointItem(client, id)).toMatchObject({ is_active: true, consecutive_failures: 1, failing_since: start });
    clock.advance(5 * 86_400 - 1);
    await handler({ Records: [message(2)] } as unknown as SQSEvent);
    expect(await endpointItem(client, id)).toMatchObject({ is_active: true, consecutive_failures: 2 });
    clock.advance(1);
    await handler({ Records: [message(3)] } as unknown as SQSEvent);
    expect(await endpointItem(client, id)).toMatchObject({ is_active: false, consecutive_failures: 3, disabled_reason: expect.stringMatching(/failed since/) });
    expect((await logOf(client, id)).at(-1)).toMatchObject({ outcome: 'endpoint_disabled' });

    // Switching it back on starts afresh.
    await updateEndpoint(deps, client, 'clinical-interview', id, { events: ['booking.created'], is_active: true }, LOCAL);
    const raw = await deps.db.send(new GetCommand({ TableName: deps.table, Key: webhookKeys.endpoint(client, 'clinical-interview', id) }));
    expect(raw.Item).toMatchObject({ is_active: true, consecutive_failures: 0 });
    expect(raw.Item).not.toHaveProperty('failing_since');
    clock.set(new Date().toISOString());
  });
});

describe('the URL guard (SSRF) at delivery', () => {
  const resolvesTo = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];

  it('checks again at delivery: a name that now resolves inside is not contacted', async () => {
    const { client, id } = await endpoint();
    const item = await endpointItem(client, id);
    const event: DomainEvent = {
      id: newEventId(),
      type: 'booking.created',
      timestamp: clock().toISOString(),
      client_id: client,
      family: 'clinical-interview',
      data: {},
    };
    const result = await attemptDelivery({ ...item, url: 'https://rebound.example.com/hook' }, event, clock(), { ...CLOUD, lookup: resolvesTo('10.9.8.7') });
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^refused: .*10\.9\.8\.7/) });
  });
});
