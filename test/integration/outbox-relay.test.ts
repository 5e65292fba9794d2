import { ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { emailPut, outboxKeys, type OutboxItem, type OutboxKind } from '../../functions/core/events/outbox.js';
import { listParked, parkedKey, retryParked } from '../../functions/core/events/parked.js';
import { relayOutbox, RELAY_TRIES } from '../../functions/core/events/relay.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { CORRELATION_ATTRIBUTE, withCorrelationId } from '../../functions/core/platform/correlation.js';
import { createSqsClient } from '../../functions/core/platform/sqs.js';
import { ensureQueues, type LocalQueue } from '../../lib/local/provision.js';
import { testDeps, uniqueName } from '../support/env.js';
import { outboxItems } from '../support/kit.js';

/** The relay against the local SQS server and DynamoDB Local: what it queues, what it parks, and how a parked item goes again. */

let deps: Deps;
let sqs: SQSClient;
let queues: LocalQueue[];
const urlOf = (id: string) => queues.find((q) => q.id === id)!.url;
const queueUrls = () =>
  ({
    event: urlOf('events'),
    email: urlOf('emails'),
    job: urlOf('jobs'),
    'subject-job': urlOf('subject_jobs'),
    check: urlOf('checks'),
    delivery: urlOf('deliveries'),
    refund: urlOf('refunds'),
  }) as Record<OutboxKind, string>;

beforeAll(async () => {
  deps = await testDeps();
  sqs = createSqsClient();
});
beforeEach(async () => {
  queues = await ensureQueues(sqs, uniqueName('relay'));
});

/** An outbox item as the current version writes it. */
const written = (payload: Record<string, unknown>): OutboxItem => emailPut(deps, payload as never).Put.Item;
/** An outbox item as an earlier version wrote it: the payload's text as it was typed. */
const legacy = (n: number, text: string): OutboxItem => {
  const id = `eml_legacy_${n}`;
  return {
    ...outboxKeys.item(id, '2026-11-20T10:00:00.000Z'),
    entity: 'outbox',
    kind: 'email',
    payload: JSON.stringify({ id, to: 'a@example.org', subject: text, text }),
    created_at: '2026-11-20T10:00:00.000Z',
    ttl: 0,
  };
};

async function drain(queueUrl: string, expected: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < 20 && bodies.length < expected; i++) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    bodies.push(...Messages.map((m) => m.Body!));
  }
  return bodies;
}

describe('the outbox relay', () => {
  it('queues text a person may type (emoji, accents, other scripts) as written now, and the consumer reads the same values', async () => {
    const subject = 'Nurse 🩺 Zoë — क्‍ष, 护士';
    const item = written({ template: 't', to: 'zoe@example.org', subject, text: 'x' });
    expect(item.payload).toMatch(/^[\x20-\x7e]*$/);
    const outcome = await relayOutbox([item], { sqs, queueUrls: queueUrls() });
    expect(outcome).toEqual({ notQueued: [], error: undefined, refused: [] });
    const [body] = await drain(urlOf('emails'), 1);
    expect(JSON.parse(body!).subject).toBe(subject);
  });

  it('carries the correlation id of the request that wrote an item as the message attribute the workers read; an item written outside a request carries none', async () => {
    const item = withCorrelationId('req-123', () => written({ template: 't', to: 'a@example.org', subject: 's', text: 'x' }));
    expect(item.correlation_id).toBe('req-123');
    await relayOutbox([item, written({ template: 't', to: 'b@example.org', subject: 's', text: 'x' })], { sqs, queueUrls: queueUrls() });
    const received: { to: string; correlation?: string }[] = [];
    for (let i = 0; i < 20 && received.length < 2; i++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: urlOf('emails'), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'] }),
      );
      received.push(...Messages.map((m) => ({ to: JSON.parse(m.Body!).to, correlation: m.MessageAttributes?.[CORRELATION_ATTRIBUTE]?.StringValue })));
    }
    expect(received.sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      { to: 'a@example.org', correlation: 'req-123' },
      { to: 'b@example.org', correlation: undefined },
    ]);
  });

  it(`hands back, after ${RELAY_TRIES} tries, only the items the queue refuses for what they hold, and queues their neighbours`, async () => {
    const items = [legacy(1, 'fine'), legacy(2, 'Ann\uFFFF'), legacy(3, 'fine too'), legacy(4, 'Nurse \uFFFE')];
    const sent: number[] = [];
    const counting = {
      send: (command: { input: { Entries?: unknown[] } }) => (sent.push(command.input.Entries?.length ?? 1), sqs.send(command as never)),
    } as unknown as SQSClient;
    const outcome = await relayOutbox(items, { sqs: counting, queueUrls: queueUrls() });
    expect(outcome.notQueued).toEqual([]);
    expect(outcome.refused.map((r) => r.item)).toEqual([items[1], items[3]]);
    expect(outcome.refused[0]!.reason).toContain('InvalidMessageContents');
    // One batch, then each refused item alone on each later try.
    expect(sent).toEqual([4, ...Array(2 * (RELAY_TRIES - 1)).fill(1)]);
    expect((await drain(urlOf('emails'), 2)).map((b) => JSON.parse(b).id).sort()).toEqual(['eml_legacy_1', 'eml_legacy_3']);
  });

  it('keeps each request within the size SQS takes: ten large items go in several requests, all queued', async () => {
    const big = 'x'.repeat(150_000);
    const items = Array.from({ length: 10 }, (_, n) => written({ template: 't', to: `big${n}@example.org`, subject: 's', text: big }));
    const outcome = await relayOutbox(items, { sqs, queueUrls: queueUrls() });
    expect(outcome).toEqual({ notQueued: [], error: undefined, refused: [] });
    expect(await drain(urlOf('emails'), 10)).toHaveLength(10);
  });

  it("reports a queue that is not there as not queued (to try again later), never as the item's fault", async () => {
    const item = legacy(5, 'fine');
    const outcome = await relayOutbox([item], { sqs, queueUrls: { ...queueUrls(), email: `${urlOf('emails')}-missing` } });
    expect(outcome.notQueued).toEqual([item]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.error).toBeDefined();
  });

  it('refuses an item of a kind it has no queue for (one a later version wrote), so that it is parked', async () => {
    const item = { ...legacy(6, 'fine'), kind: 'fax' as OutboxKind };
    const outcome = await relayOutbox([item], { sqs, queueUrls: queueUrls() });
    expect(outcome.refused).toEqual([{ item, reason: 'No queue for outbox items of kind "fax"' }]);
  });
});

describe('the stream relay in the cloud', () => {
  it('parks a refused item, goes on past it, and an operator sends it again as this version writes it', async () => {
    Object.assign(process.env, {
      QUEUE_URL_EVENTS: urlOf('events'),
      QUEUE_URL_EMAILS: urlOf('emails'),
      QUEUE_URL_JOBS: urlOf('jobs'),
      QUEUE_URL_SUBJECT_JOBS: urlOf('subject_jobs'),
      QUEUE_URL_CHECKS: urlOf('checks'),
      QUEUE_URL_DELIVERIES: urlOf('deliveries'),
      QUEUE_URL_REFUNDS: urlOf('refunds'),
      TABLE_NAME: deps.table,
    });
    const { handler } = await import('../../functions/consumers/outbox-stream.js');
    const items = [legacy(7, 'fine'), legacy(8, 'Ann\uFFFF'), legacy(9, 'fine again')];
    const records = items.map((item, n) => ({ eventName: 'INSERT', dynamodb: { SequenceNumber: `${200 + n}`, NewImage: marshall(item) } }));
    const response = await handler({ Records: records } as unknown as DynamoDBStreamEvent);
    expect(response.batchItemFailures).toEqual([]);
    expect((await drain(urlOf('emails'), 2)).map((b) => JSON.parse(b).id).sort()).toEqual(['eml_legacy_7', 'eml_legacy_9']);

    const record = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: parkedKey(items[1]!) }))).Item;
    expect(record).toMatchObject({
      entity: 'relay-failed',
      id: 'eml_legacy_8',
      kind: 'email',
      payload: items[1]!.payload,
      reason: expect.stringContaining('InvalidMessageContents'),
    });
    expect((await listParked(deps)).map((p) => p.id)).toContain('eml_legacy_8');

    expect(await retryParked(deps, ['eml_legacy_8', 'eml_never'])).toEqual({ retried: ['eml_legacy_8'], unknown: ['eml_never'] });
    expect((await listParked(deps)).map((p) => p.id)).not.toContain('eml_legacy_8');
    const again = (await outboxItems(deps)).find((i) => i.sk.endsWith('#eml_legacy_8'))!;
    expect(again.payload).toBe(items[1]!.payload.replaceAll('\uFFFF', '\\uffff'));
    // A second operator's retry of the same item finds nothing to send.
    expect(await retryParked(deps, ['eml_legacy_8'])).toEqual({ retried: [], unknown: ['eml_legacy_8'] });
  });
});
