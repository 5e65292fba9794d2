import type { Deps } from '../../../functions/core/platform/deps.js';
import { seedDemoData } from '../../../functions/core/demo-data.js';
import type { DomainEvent, EmailMessage } from '../../../functions/core/events/outbox.js';
import { declineReference, referenceForm, submitReference, submitReferees } from '../../../functions/core/portal-v2/reference-forms.js';
import { loadReferenceRequest } from '../../../functions/core/portal-v2/references.js';
import { cancelReferenceRequest, createReferenceRequest, getReferenceRequest, sendReminders } from '../../../functions/core/portal-v2/reference-requests.js';
import { expireDueRequestsOfEveryKind } from '../../../functions/core/portal-v2/request-kinds.js';
import { outboxPayloads } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

let deps: Deps;
let clock: TestClock;
const CLIENT = 'demo-northwind';
const BASE = 'http://portal.test/portal/v2';
let n = 0;
const referee = () => ({ referee_name: `Ref ${++n}`, referee_email: `ref${n}@nhs.example`, referee_organisation: 'NHS Trust', referee_position: 'Matron' });
const ANSWERS = { clinical_competence: '4', reliability: '4', communication: '4', teamwork: '4', safeguarding: 'None' };

beforeAll(async () => {
  clock = testClock('2026-11-23T09:00:00.000Z');
  deps = await testDeps({ clock });
  await seedDemoData(deps);
});

const create = (extra: object = {}) =>
  createReferenceRequest(
    deps,
    CLIENT,
    { candidate_id: 1, collection_mode: 'client_adds', references_required: 1, template_id: 1, expiry_days: 14, referees: [referee(), referee()], ...extra },
    BASE,
  );
const tokenOf = async (requestId: number, index: number) => (await loadReferenceRequest(deps, CLIENT, requestId))!.references[index]!.form_token;
const remindersTo = async (email: string) =>
  (await outboxPayloads<EmailMessage>(deps, 'email')).filter((m) => m.template === 'reference-reminder' && m.to === email);

describe('reminders', () => {
  it('go to referees who have not answered, at most once per referee per 24 hours', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ references_required: 2 });
    const [first, second] = request.references;
    await submitReference(deps, await tokenOf(request.id, 1), ANSWERS);

    clock.advance(24 * 3600 - 1);
    expect((await sendReminders(deps, CLIENT, request.id)).reminders_sent).toBe(0);
    clock.advance(1);
    const sent = await sendReminders(deps, CLIENT, request.id);
    expect(sent.reminders_sent).toBe(1);
    expect(sent.request.references[0]).toMatchObject({ reminder_count: 1, last_reminder_sent_at: '2026-11-24T09:00:00.000Z' });
    expect(sent.request.references[1]).toMatchObject({ status: 'completed', reminder_count: 0 });
    expect((await sendReminders(deps, CLIENT, request.id)).reminders_sent).toBe(0);
    expect(await remindersTo(first!.referee_email)).toHaveLength(1);
    expect(await remindersTo(second!.referee_email)).toHaveLength(0);

    clock.advance(24 * 3600);
    const [a, b] = await Promise.all([sendReminders(deps, CLIENT, request.id), sendReminders(deps, CLIENT, request.id)]);
    expect(a.reminders_sent + b.reminders_sent).toBe(1);
    expect(await remindersTo(first!.referee_email)).toHaveLength(2);
    expect((await getReferenceRequest(deps, CLIENT, request.id)).references[0]!.reminder_count).toBe(2);
  });

  it('say for each referee whether they were reminded, and if not why and when they can be', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ references_required: 3, expiry_days: 3, referees: [referee(), referee(), referee()] });
    const [waiting, answered, declined] = request.references;
    await submitReference(deps, await tokenOf(request.id, 1), ANSWERS);
    await declineReference(deps, await tokenOf(request.id, 2), 'I did not manage this candidate');
    const outcome = async () => (await sendReminders(deps, CLIENT, request.id)).request.reminders;

    clock.set('2026-11-23T15:00:00.000Z');
    expect(await outcome()).toEqual([
      {
        reference_id: waiting!.id,
        referee_name: waiting!.referee_name,
        reminded: false,
        reason: 'reminded_recently',
        next_reminder_at: '2026-11-24T09:00:00.000Z',
      },
      { reference_id: answered!.id, referee_name: answered!.referee_name, reminded: false, reason: 'completed', next_reminder_at: null },
      { reference_id: declined!.id, referee_name: declined!.referee_name, reminded: false, reason: 'declined', next_reminder_at: null },
    ]);

    clock.set('2026-11-24T10:00:00.000Z');
    expect((await outcome())[0]).toMatchObject({ reminded: true, reason: null, next_reminder_at: '2026-11-25T10:00:00.000Z' });
    expect((await outcome())[0]).toMatchObject({ reminded: false, reason: 'reminded_recently', next_reminder_at: '2026-11-25T10:00:00.000Z' });

    // The request expires on the 26th at 09:00: a reminder on the 25th at 10:00 is the last one.
    clock.set('2026-11-25T10:00:00.000Z');
    expect((await outcome())[0]).toMatchObject({ reminded: true, reason: null, next_reminder_at: null });
  });
});

describe('expiry', () => {
  it('is decided by the clock at once, and the sweep closes links and tells the agency', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ expiry_days: 1 });
    const token = await tokenOf(request.id, 0);
    clock.advance(86_400 - 1);
    expect(await getReferenceRequest(deps, CLIENT, request.id)).toMatchObject({ status: 'pending', is_expired: false });
    expect((await referenceForm(deps, token)).state).toBe('open');

    clock.advance(1);
    const due = await getReferenceRequest(deps, CLIENT, request.id);
    expect(due).toMatchObject({ status: 'expired', status_label: 'Expired', is_expired: true });
    expect(due.references.map((r) => r.status)).toEqual(['expired', 'expired']);
    expect((await referenceForm(deps, token)).state).toBe('expired');
    await expect(submitReference(deps, token, ANSWERS)).rejects.toMatchObject({ code: 'invalid-state' });

    expect((await expireDueRequestsOfEveryKind(deps)).reference).toBeGreaterThanOrEqual(1);
    const stored = (await loadReferenceRequest(deps, CLIENT, request.id))!;
    expect(stored.request.status).toBe('expired');
    expect(stored.references.map((r) => r.status)).toEqual(['expired', 'expired']);
    const events = (await outboxPayloads<DomainEvent>(deps, 'event')).filter(
      (e) => e.type === 'reference_request.expired' && (e.data as { id: number }).id === request.id,
    );
    expect(events).toHaveLength(1);
    expect((await expireDueRequestsOfEveryKind(deps)).reference).toBe(0);
  });

  it('leaves a completed request completed and expires its outstanding references', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ expiry_days: 2 });
    await submitReference(deps, await tokenOf(request.id, 0), ANSWERS);
    clock.advance(2 * 86_400);
    await expireDueRequestsOfEveryKind(deps);
    const stored = (await loadReferenceRequest(deps, CLIENT, request.id))!;
    expect(stored.request.status).toBe('completed');
    expect(stored.references.map((r) => r.status).sort()).toEqual(['completed', 'expired']);
  });
});

describe('concurrent answers', () => {
  it('count every completion and tell the agency the request is complete exactly once', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ references_required: 3, referees: [referee(), referee(), referee(), referee()] });
    const tokens = await Promise.all([0, 1, 2, 3].map((i) => tokenOf(request.id, i)));
    await Promise.all(tokens.map((t) => submitReference(deps, t, ANSWERS)));
    const after = await getReferenceRequest(deps, CLIENT, request.id);
    expect(after).toMatchObject({ status: 'completed', references_completed: 4, is_fully_referenced: true });
    const events = (await outboxPayloads<DomainEvent>(deps, 'event')).filter(
      (e) =>
        (e.data as { id: number; reference_request_id?: number }).id === request.id ||
        (e.data as { reference_request_id?: number }).reference_request_id === request.id,
    );
    expect(events.filter((e) => e.type === 'reference.completed')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'reference_request.completed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'reference_request.created')).toHaveLength(1);
  });
});

describe('races on one link', () => {
  const eventsOf = async (requestId: number, type: string) =>
    (await outboxPayloads<DomainEvent>(deps, 'event')).filter(
      (e) => e.type === type && (e.data as { reference_request_id?: number }).reference_request_id === requestId,
    );

  it('two submissions of one reference form: one wins, the other is refused and changes nothing', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create({ references_required: 2 });
    const token = await tokenOf(request.id, 0);
    const results = await Promise.allSettled([submitReference(deps, token, ANSWERS), declineReference(deps, token, 'I never worked with them')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'invalid-state' });
    const won = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ status: string }>).value.status;

    const stored = (await loadReferenceRequest(deps, CLIENT, request.id))!;
    expect(stored.references[0]!.status).toBe(won);
    expect(stored.request).toMatchObject({ status: 'in_progress', references_completed: won === 'completed' ? 1 : 0 });
    const answered = [...(await eventsOf(request.id, 'reference.completed')), ...(await eventsOf(request.id, 'reference.declined'))];
    expect(answered).toHaveLength(1);
    expect(answered[0]!.type).toBe(`reference.${won}`);
  });

  it("two submissions of a candidate's referee page: the first one's referees are e-mailed, the second is refused", async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await createReferenceRequest(
      deps,
      CLIENT,
      { candidate_id: 1, collection_mode: 'candidate_provides', references_required: 1, template_id: 1, expiry_days: 14 },
      BASE,
    );
    const token = new URL(request.submission_url!).pathname.split('/').pop()!;
    const teams = [[referee()], [referee(), referee()]];
    const results = await Promise.allSettled(teams.map((t) => submitReferees(deps, token, t)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid-state' });
    const winner = teams[results.findIndex((r) => r.status === 'fulfilled')]!;
    const stored = await getReferenceRequest(deps, CLIENT, request.id);
    expect(stored.references.map((r) => r.referee_email)).toEqual(winner.map((r) => r.referee_email));
    const invited = (await outboxPayloads<EmailMessage>(deps, 'email')).filter((m) => teams.flat().some((r) => r.referee_email === m.to));
    expect(invited.map((m) => m.to).sort()).toEqual(winner.map((r) => r.referee_email).sort());
  });

  it('a cancellation racing a submission: the reference is either answered before the cancellation or refused', async () => {
    clock.set('2026-11-23T09:00:00.000Z');
    const request = await create();
    const token = await tokenOf(request.id, 0);
    const [submitted, cancelled] = await Promise.allSettled([submitReference(deps, token, ANSWERS), cancelReferenceRequest(deps, CLIENT, request.id)]);
    expect(cancelled.status).toBe('fulfilled');
    const stored = (await loadReferenceRequest(deps, CLIENT, request.id))!;
    expect(stored.request.status).toBe('cancelled');
    expect(stored.references[0]!.status).toBe(submitted.status === 'fulfilled' ? 'completed' : 'cancelled');
    expect(stored.references[1]!.status).toBe('cancelled');
    expect(await eventsOf(request.id, 'reference.completed')).toHaveLength(submitted.status === 'fulfilled' ? 1 : 0);
  });
});
