import { randomUUID } from 'node:crypto';
import { outboxKeys, type OutboxItem } from '../../functions/core/events/outbox.js';
import { writeMany } from '../../functions/core/platform/db.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, demoTokens, mailTo, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * One tenant's bad items never hold up another tenant's e-mails and webhooks:
 * text a queue cannot carry is refused at the edge, any text a person may
 * type (emoji included) is queued, and an item a queue refuses anyway (one
 * committed by an earlier version) is parked so that the relay goes on.
 */

const UNRELAYABLE = 500;

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['clinical-interview']!;
  ({ northwind, riverside } = (await demoTokens(stack))['clinical-interview']!);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const deps = () => ({ ...depsFromEnv(), table: stack.info.table_name });

const candidate = (email: string) => ({ first_name: 'Zoë', last_name: 'Okafor', email, phone: '+447700900456', job_role: 'Nurse 🩺', nmc_number: '21B4567C' });

async function book(token: string, body: Record<string, unknown>) {
  const slot = (await call(`${base}/timeslots?interview_type_id=1`, { token })).body.data[0];
  const held = await call(`${base}/timeslots/hold`, { token, body: { interview_type_id: 1, date: slot.date, time: slot.time } });
  expect(held.status).toBe(201);
  return { held: held.body, booked: await call(`${base}/bookings`, { token, body: { ...body, hold_hash: held.body.hold_hash, pay_option: 'credits' } }) };
}

describe('text a queue or a reader cannot take', () => {
  it.each([
    ['a noncharacter', 'Ann\uFFFF'],
    ['a noncharacter of the FDD0 block', 'Ann\uFDD0'],
    ['a line separator', 'Ann\u2028Bcc'],
    ['a left-to-right mark', 'Ann\u200E'],
    ['a tag character', 'Ann\u{E0041}'],
    ['a lone surrogate', 'Ann\uD83E'],
  ])('refuses %s in a name with 422 at the field, and books nothing', async (_, firstName) => {
    const { held, booked } = await book(northwind, { ...candidate('refused@example.org'), first_name: firstName });
    expect(booked.status).toBe(422);
    expect(booked.body.errors).toEqual([{ pointer: '/first_name', detail: 'Must not contain control, invisible formatting or noncharacter code points' }]);
    expect((await call(`${base}/timeslots/hold/${held.hold_hash}`, { method: 'DELETE', token: northwind })).status).toBe(204);
  });

  it('accepts emoji, accents and the joiners scripts need, and carries them to the e-mail and the webhook intact', async () => {
    const hook = await call(`${base}/webhooks`, { token: riverside, body: { name: 'Emoji', url: receiver.url, events: ['booking.created'] } });
    expect(hook.status).toBe(201);
    const email = `zoe.${randomUUID().slice(0, 8)}@example.org`;
    const { booked } = await book(riverside, { ...candidate(email), last_name: 'Okafor-क्‍ष' });
    expect(booked.status).toBe(201);
    expect(booked.body.candidate).toMatchObject({ name: 'Zoë Okafor-क्‍ष', job_role: 'Nurse 🩺' });

    const [mail] = await mailTo(stack, email);
    expect(mail).toContain('Zoë');
    const delivery = await eventually(() => receiver.received.find((r) => JSON.parse(r.body).data?.id === booked.body.id), {
      timeoutMs: 15_000,
      what: 'the booking.created delivery',
    });
    expect(JSON.parse(delivery.body).data.candidate).toMatchObject({ name: 'Zoë Okafor-क्‍ष', job_role: 'Nurse 🩺' });
    expect((await call(`${base}/webhooks/${hook.body.id}`, { method: 'DELETE', token: riverside })).status).toBe(204);
  });
});

describe('items a queue refuses', () => {
  /** E-mails of northwind's, as an earlier version committed them: raw text, a noncharacter the queue refuses. */
  async function commitUnrelayable(count: number): Promise<string[]> {
    const createdAt = new Date(Date.now() - 60_000).toISOString();
    const items: OutboxItem[] = Array.from({ length: count }, () => {
      const id = `eml_${randomUUID().replaceAll('-', '')}`;
      const payload = {
        id,
        template: 'booking-confirmed',
        client_id: 'demo-northwind',
        to: 'parked@example.org',
        subject: `Interview for Ann\uFFFF ${id}`,
        text: 'Your interview is booked.',
      };
      return {
        ...outboxKeys.item(id, createdAt),
        entity: 'outbox',
        kind: 'email',
        payload: JSON.stringify(payload),
        created_at: createdAt,
        ttl: Math.floor(Date.now() / 1000) + 86_400,
      };
    });
    await writeMany(
      deps(),
      items.map((put) => ({ put: { ...put } })),
    );
    return items.map((i) => JSON.parse(i.payload).id as string);
  }

  it(`lets another tenant's e-mail and webhook through within seconds while ${UNRELAYABLE} refused items of one tenant are pending, parks them, and sends them again on the operator's word`, async () => {
    const hook = await call(`${base}/webhooks`, { token: riverside, body: { name: 'Through', url: receiver.url, events: ['booking.created'] } });
    expect(hook.status).toBe(201);
    const parked = await commitUnrelayable(UNRELAYABLE);

    const started = Date.now();
    const email = `through.${randomUUID().slice(0, 8)}@example.org`;
    const tested = await call(`${base}/webhooks/${hook.body.id}/test`, { method: 'POST', token: riverside });
    expect(tested.status).toBe(202);
    const { booked } = await book(riverside, candidate(email));
    expect(booked.status).toBe(201);
    await mailTo(stack, email);
    await eventually(() => receiver.received.some((r) => r.headers['webhook-id'] === tested.body.event_id), {
      timeoutMs: 15_000,
      what: 'the webhook.test delivery',
    });
    // Seconds, not the minutes (or never) of a relay stuck behind the oldest items.
    expect(Date.now() - started).toBeLessThan(10_000);

    const listed = await eventually(
      async () => {
        const out = await ops(stack, 'outbox', 'parked');
        const rows = JSON.parse(out.stdout) as { id: string; kind: string; client_id: string; reason: string }[];
        return rows.length === UNRELAYABLE && rows;
      },
      { timeoutMs: 30_000, what: `${UNRELAYABLE} parked items` },
    );
    expect(listed.map((r) => r.id).sort()).toEqual([...parked].sort());
    expect(listed[0]).toMatchObject({ kind: 'email', client_id: 'demo-northwind', reason: expect.stringContaining('InvalidMessageContents') });

    // Sent again, each is written as this version writes it, which any queue takes.
    const retried = await ops(stack, 'outbox', 'parked', '--retry', parked[0]!, '--retry', parked[1]!);
    expect(retried.status).toBe(0);
    expect(JSON.parse(retried.stdout).retried.sort()).toEqual([parked[0], parked[1]].sort());
    const mails = await mailTo(stack, 'parked@example.org', 2);
    expect(mails.join('\n')).toContain(parked[0]);
    expect(mails.join('\n')).toContain(parked[1]);
    expect(JSON.parse((await ops(stack, 'outbox', 'parked')).stdout)).toHaveLength(UNRELAYABLE - 2);

    const unknown = await ops(stack, 'outbox', 'parked', '--retry', 'eml_not_parked');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Not parked: eml_not_parked');
  }, 90_000);
});
