import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EmailMessage } from '../../../functions/core/events/outbox.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type Location,
} from '../../../functions/core/practical-training/catalogue.js';
import { inviteKeys } from '../../../functions/core/bookings/invite-keys.js';
import {
  createInvite,
  getInvite,
  inviteOfToken,
  listInvites,
  recordInviteSent,
  tokenHash,
  type NewInvite,
} from '../../../functions/core/practical-training/invites.js';
import { openInvite } from '../../../functions/core/practical-training/invites-page.js';
import { seedDemoInvites } from '../../../functions/core/practical-training/demo.js';
import { topUpCredits, topUpMoney } from '../../../functions/core/commerce/wallets.js';
import { newClient as bareClient, outboxPayloads } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

let deps: Deps;
let clock: TestClock;
let course: Course;
let other: Course;
let location: Location;

beforeAll(async () => {
  clock = testClock('2026-11-23T08:00:00.000Z');
  deps = await testDeps({ clock });
  course = await createCourse(deps, {
    name: 'Basic Life Support (adult)',
    code: 'BLS-A',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 6000,
  });
  other = await createCourse(deps, { name: 'Moving and handling', code: 'MH', duration_minutes: 240, certificate_validity_months: 12, price_minor: 7000 });
  location = await createLocation(deps, { name: 'Leeds Training Centre', address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' } });
});

/** A client with 5 credits of each course: an invite paid by credits needs them. */
async function newClient(d: Deps, options: { invoiceEnabled?: boolean } = {}): Promise<string> {
  const client = await bareClient(d, options);
  for (const c of [course, other]) await topUpCredits(d, client, PRACTICAL_FAMILY, { kind: 'course', id: c.id, name: c.name }, 5);
  return client;
}

const links = { invite: (token: string) => `http://api.test/practical-training/invite/${token}` };
const body = (over: Partial<NewInvite> = {}): NewInvite => ({
  candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org' },
  course_id: course.id,
  pay_option: 'credits',
  ...over,
});
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => [e.code, e.extensions?.pointer].filter(Boolean).join(' '),
  );
const tokenOf = (url: string) => url.split('/').pop()!;
const eventsOf = async (inviteId: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event'))
    .filter((e) => e.type.startsWith('booking_invite.') && (e.data as { id: number }).id === inviteId)
    .map((e) => e.type);

describe('creating an invite', () => {
  it('writes it queued with only the hash of its token, and queues the e-mail with the link and a hand-over receipt', async () => {
    const client = await newClient(deps);
    const created = await createInvite(deps, client, body({ location_id: location.id, message: 'Before your first shift' }), links);
    expect(created).toMatchObject({
      status: 'queued',
      open_count: 0,
      booking_id: null,
      sent_at: null,
      course: { id: course.id, code: 'BLS-A' },
      location: { id: location.id, town: 'Leeds' },
      training_event: null,
    });
    expect(created.expires_at).toBe('2026-12-07T08:00:00+00:00'); // 14 days by default
    const token = tokenOf(created.invite_url);
    const { Item: pointer } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: inviteKeys.token(PRACTICAL_FAMILY, tokenHash(token)) }));
    expect(pointer).toMatchObject({ client_id: client, invite_id: created.id });
    const { Item: stored } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: inviteKeys.invite(client, PRACTICAL_FAMILY, created.id) }));
    expect(JSON.stringify(stored)).not.toContain(token);
    const mail = (await outboxPayloads<EmailMessage>(deps, 'email')).find((m) => m.receipt?.invite_id === created.id && m.receipt.client_id === client);
    expect(mail).toMatchObject({ to: 'grace@example.org', template: 'booking-invitation' });
    expect(mail!.text).toContain(created.invite_url);
    expect(mail!.text).toContain('Before your first shift');
    expect(await getInvite(deps, client, created.id)).not.toHaveProperty('invite_url');
  });

  it('refuses invoice without invoicing, an inactive or unknown course, and a pinned event of another course', async () => {
    const client = await newClient(deps);
    const event = await createTrainingEvent(deps, { course_id: other.id, location_id: location.id, date: '2026-12-10', start_time: '09:30', capacity: 12 });
    expect(await code(createInvite(deps, client, body({ pay_option: 'invoice' }), links))).toBe('invoice-disabled');
    expect(await code(createInvite(deps, client, body({ course_id: 999 }), links))).toBe('invalid-field /course_id');
    expect(await code(createInvite(deps, client, body({ training_event_id: event.id }), links))).toBe('invalid-field /training_event_id');
    expect(await code(createInvite(deps, client, body({ location_id: 999 }), links))).toBe('invalid-field /location_id');
    expect((await listInvites(deps, client, { limit: 25 })).data).toEqual([]);
    const invoicing = await newClient(deps, { invoiceEnabled: true });
    const pinned = await createInvite(deps, invoicing, body({ pay_option: 'invoice', course_id: other.id, training_event_id: event.id }), links);
    expect(pinned.training_event).toMatchObject({ id: event.id, date: '2026-12-10', start_time: '09:30' });
  });

  it("lists the caller's invites newest first, and another client's invite is not found", async () => {
    const client = await newClient(deps);
    const first = await createInvite(deps, client, body(), links);
    const second = await createInvite(deps, client, body({ course_id: other.id }), links);
    const page = await listInvites(deps, client, { limit: 1 });
    expect(page.data.map((i) => i.id)).toEqual([second.id]);
    expect((await listInvites(deps, client, { limit: 5, cursor: page.next_cursor! })).data.map((i) => i.id)).toEqual([first.id]);
    expect(await code(getInvite(deps, await newClient(deps), first.id))).toBe('not-found');
  });
});

describe("an invite the agency's funds must cover", () => {
  it('is refused by credits past the credits left less the open invites, and by balance past the money left less theirs', async () => {
    const client = await bareClient(deps);
    expect(await code(createInvite(deps, client, body(), links))).toBe('insufficient-credits');
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 2);
    // Concurrent invites are counted against each other: two of three fit.
    const outcomes = await Promise.all([1, 2, 3].map(() => code(createInvite(deps, client, body(), links))));
    expect(outcomes.sort()).toEqual(['insufficient-credits', 'ok', 'ok']);
    // Another course's credits are its own; candidate_pays draws on nothing.
    expect(await code(createInvite(deps, client, body({ course_id: other.id }), links))).toBe('insufficient-credits');
    expect(await code(createInvite(deps, client, body({ pay_option: 'candidate_pays' }), links))).toBe('ok');
    expect(await code(createInvite(deps, client, body(), links))).toBe('insufficient-credits');
    // Expired invites no longer count (by the clock).
    clock.advance(15 * 86_400);
    expect(await code(createInvite(deps, client, body(), links))).toBe('ok');
    clock.set('2026-11-23T08:00:00.000Z');

    const payer = await bareClient(deps);
    await topUpMoney(deps, payer, PRACTICAL_FAMILY, 15_000); // £150: two invites of £60, not three
    expect(await code(createInvite(deps, payer, body({ pay_option: 'balance' }), links))).toBe('ok');
    expect(await code(createInvite(deps, payer, body({ pay_option: 'balance' }), links))).toBe('ok');
    expect(await code(createInvite(deps, payer, body({ pay_option: 'balance' }), links))).toBe('insufficient-balance');
  });
});

describe("an invite's lifecycle", () => {
  it('is sent once however often the mail worker reports the hand-over', async () => {
    const client = await newClient(deps);
    const { id } = await createInvite(deps, client, body(), links);
    expect(await Promise.all([recordInviteSent(deps, client, id), recordInviteSent(deps, client, id)])).toContain(true);
    expect(await recordInviteSent(deps, client, id)).toBe(false);
    expect(await getInvite(deps, client, id)).toMatchObject({ status: 'sent', sent_at: '2026-11-23T08:00:00+00:00' });
    expect(await eventsOf(id)).toEqual(['booking_invite.sent']);
  });

  it('counts every opening, and the first marks it opened with one event; HEAD writes nothing', async () => {
    const client = await newClient(deps);
    const created = await createInvite(deps, client, body(), links);
    await recordInviteSent(deps, client, created.id);
    const token = tokenOf(created.invite_url);
    await openInvite(deps, token, false);
    expect(await getInvite(deps, client, created.id)).toMatchObject({ status: 'sent', open_count: 0, opened_at: null });
    await Promise.all([1, 2, 3, 4].map(() => openInvite(deps, token, true)));
    expect(await getInvite(deps, client, created.id)).toMatchObject({ status: 'opened', open_count: 4, opened_at: '2026-11-23T08:00:00+00:00' });
    expect((await eventsOf(created.id)).sort()).toEqual(['booking_invite.opened', 'booking_invite.sent']);
  });

  it('is expired on read once past expires_at, and opening it then changes nothing', async () => {
    const client = await newClient(deps);
    const created = await createInvite(deps, client, body({ expires_in_days: 1 }), links);
    clock.advance(86_400 - 1);
    expect((await getInvite(deps, client, created.id)).status).toBe('queued');
    clock.advance(1);
    expect((await getInvite(deps, client, created.id)).status).toBe('expired');
    await openInvite(deps, tokenOf(created.invite_url), true);
    expect(await getInvite(deps, client, created.id)).toMatchObject({ status: 'expired', open_count: 0 });
    clock.set('2026-11-23T08:00:00.000Z');
  });

  it('does not lead anywhere from an unknown token', async () => {
    expect(await code(openInvite(deps, 'x'.repeat(43), true))).toBe('not-found');
  });
});

describe('the demo data', () => {
  it('gives each demo client one sent invite at its known token, once however often it is seeded', async () => {
    const client = await newClient(deps);
    const demo = [
      {
        client_id: client,
        invite_token: 'demo-invite-test-local-only',
        candidate: { first_name: 'Florence', last_name: 'Ward', email: 'florence@example.org' },
      },
    ];
    await seedDemoInvites(deps, demo);
    await seedDemoInvites(deps, demo);
    const { data } = await listInvites(deps, client, { limit: 5 });
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ status: 'sent', course: { id: course.id } });
    expect((await inviteOfToken(deps, 'demo-invite-test-local-only')).id).toBe(data[0]!.id);
    const mails = (await outboxPayloads<EmailMessage>(deps, 'email')).filter((m) => m.receipt?.client_id === client);
    expect(mails).toEqual([]);
  });
});
