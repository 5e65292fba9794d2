import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../../../functions/core/access/clients.js';
import { backfillBookingLogs } from '../../../functions/core/bookings/backfill.js';
import { cancelBooking, rescheduleBooking } from '../../../functions/core/clinical-interview/booking-admin.js';
import { createBooking } from '../../../functions/core/clinical-interview/booking-api.js';
import { type BookingView } from '../../../functions/core/clinical-interview/bookings.js';
import { changeKeys, listChanges } from '../../../functions/core/bookings/change-log.js';
import { listBySchedule, scheduleKeys } from '../../../functions/core/bookings/schedule.js';
import { clinicalBookings } from '../../../functions/core/clinical-interview/bookings.js';
import type { InterviewType } from '../../../functions/core/clinical-interview/catalog.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { candidate, CI, forgeHold, testCatalog } from '../../support/clinical.js';
import { links, MONDAY, newClient } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/** The bookings engine's change log and schedule pointers, on a clock the test moves. */

let deps: Deps;
let clock: TestClock;
let type: InterviewType;
let interviewer: number;
const kind = clinicalBookings(CI);

beforeAll(async () => {
  clock = testClock(`${MONDAY}T08:00:00.000Z`);
  deps = await testDeps({ clock });
  ({ type } = await testCatalog(deps));
  interviewer = 1;
});

let day = 0;
const nextDate = () => `2026-12-${String(++day).padStart(2, '0')}`;

async function book(clientId: string, date = nextDate()): Promise<BookingView> {
  const hold = await forgeHold(deps, clientId, type, interviewer, date, '09:00');
  return createBooking(deps, clientId, { ...candidate, hold_hash: hold, pay_option: 'invoice' }, links);
}

const entries = async (clientId: string, prefix: string) => {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return Items;
};
/** The feed as a poller reads it, settled up to now. */
const feed = (clientId: string, since: string) => listChanges(deps, kind, clientId, { since: new Date(since), limit: 100 }, [], 0.001);

describe('the change log', () => {
  it('holds each booking once, at its latest change, and every write moves it', async () => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    const a = await book(clientId);
    clock.advance(60);
    const moved = await rescheduleBooking(deps, a.id, { date: nextDate(), time: '10:00' });
    clock.advance(60);
    const cancelled = await cancelBooking(deps, a.id, 'changed plans');
    expect(await entries(clientId, changeKeys.familyPrefix(CI))).toHaveLength(1);
    clock.advance(1);
    const changes = await feed(clientId, '2026-01-01T00:00:00Z');
    expect(changes.data).toEqual([cancelled]);
    expect(Date.parse(moved.updated_at)).toBeGreaterThan(Date.parse(a.updated_at));
    expect(Date.parse(cancelled.updated_at)).toBeGreaterThan(Date.parse(moved.updated_at));
  });

  it('gives two changes of a booking in one millisecond two updated_at, so a poller tells them apart', async () => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    const a = await book(clientId);
    // The clock stands still: the reschedule and the cancellation happen "at once".
    const moved = await rescheduleBooking(deps, a.id, { date: nextDate(), time: '10:00' });
    const cancelled = await cancelBooking(deps, a.id);
    expect(new Set([a.updated_at, moved.updated_at, cancelled.updated_at]).size).toBe(3);
    expect(Date.parse(cancelled.updated_at) - Date.parse(a.updated_at)).toBe(2);
  });

  it('orders equal times by id, answers the bound inclusively, and waits for changes younger than the settling time', async () => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    clock.advance(3600);
    const [a, b] = [await book(clientId), await book(clientId)];
    expect(a.updated_at).toBe(b.updated_at);
    const at = new Date(Date.parse(a.updated_at)).toISOString();
    expect((await listChanges(deps, kind, clientId, { since: new Date(at), limit: 10 }, [], 5)).data).toEqual([]);
    clock.advance(5);
    expect((await listChanges(deps, kind, clientId, { since: new Date(at), limit: 10 }, [], 5)).data.map((x) => x.id)).toEqual([a.id, b.id]);
    // A page of one, and the next from its cursor.
    const first = await listChanges(deps, kind, clientId, { since: new Date(at), limit: 1 }, [], 5);
    expect(first.data.map((x) => x.id)).toEqual([a.id]);
    const second = await listChanges(deps, kind, clientId, { since: new Date(at), limit: 1, cursor: first.next_cursor! }, [], 5);
    expect(second.data.map((x) => x.id)).toEqual([b.id]);
  });
});

describe('the schedule', () => {
  it('keeps one pointer per booking at its start, moved by a reschedule, and lists by start either way', async () => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    const late = await book(clientId, '2026-12-20');
    const early = await book(clientId, '2026-12-18');
    const moved = await rescheduleBooking(deps, late.id, { date: '2026-12-16', time: '10:00' });
    expect((await entries(clientId, scheduleKeys.familyPrefix(CI))).map((e) => e.booking_id)).toEqual([late.id, early.id]);
    const soonest = await listBySchedule(deps, kind, clientId, { window: { after: new Date('2026-12-01T00:00:00Z') }, limit: 10 });
    expect(soonest.data).toEqual([moved, early]);
    const latest = await listBySchedule(deps, kind, clientId, { window: { before: new Date('2026-12-31T00:00:00Z') }, limit: 10 });
    expect(latest.data.map((x) => x.id)).toEqual([early.id, late.id]);
    const days = await listBySchedule(deps, kind, clientId, {
      window: { starts: { from: new Date('2026-12-18T00:00:00Z'), to: new Date('2026-12-19T00:00:00Z') } },
      limit: 10,
    });
    expect(days.data.map((x) => x.id)).toEqual([early.id]);
  });
});

describe('the backfill', () => {
  it('gives bookings from before the logs their entries, and running it again adds none', async () => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    const old = await book(clientId);
    // As a booking made before the logs existed: no entries.
    for (const prefix of [changeKeys.familyPrefix(CI), scheduleKeys.familyPrefix(CI)]) {
      for (const item of await entries(clientId, prefix)) await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));
    }
    clock.advance(10);
    expect((await feed(clientId, '2026-01-01T00:00:00Z')).data).toEqual([]);
    expect(await backfillBookingLogs(deps)).toBeGreaterThanOrEqual(1);
    expect(await backfillBookingLogs(deps)).toBeGreaterThanOrEqual(1);
    expect((await feed(clientId, '2026-01-01T00:00:00Z')).data).toEqual([old]);
    expect(await entries(clientId, changeKeys.familyPrefix(CI))).toHaveLength(1);
    expect(await entries(clientId, scheduleKeys.familyPrefix(CI))).toHaveLength(1);
  });
});
