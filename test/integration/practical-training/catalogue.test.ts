import {
  createCourse,
  createLocation,
  createTrainingEvent,
  loadCatalogue,
  updateCourse,
  updateLocation,
} from '../../../functions/core/practical-training/catalogue.js';
import { listTrainingEvents } from '../../../functions/core/practical-training/events.js';
import { holdSeat } from '../../../functions/core/practical-training/seats.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { testDeps } from '../../support/env.js';
import { watchInFlight } from '../../support/in-flight.js';
import { refusalCode } from '../../support/kit.js';

let deps: Deps;
beforeAll(async () => {
  deps = await testDeps();
});

describe('operators change the catalogue', () => {
  it('a course: name, price, refund window and validity, for what is sold from now on', async () => {
    const course = await createCourse(deps, { name: 'BLS adult', code: 'BLS-U1', duration_minutes: 180, certificate_validity_months: 12, price_minor: 6500 });
    const updated = await updateCourse(deps, course.id, { price_minor: 7000, free_cancellation_hours: 48 });
    expect(updated).toMatchObject({
      id: course.id,
      name: 'BLS adult',
      price: { amount: 7000, currency: 'GBP' },
      free_cancellation_hours: 48,
      certificate_validity_months: 12,
    });
    expect((await loadCatalogue(deps)).courses.find((c) => c.id === course.id)?.price.amount).toBe(7000);
    expect(await refusalCode(updateCourse(deps, course.id, { price_minor: -1 }))).toBe('invalid-catalog');
    expect(await refusalCode(updateCourse(deps, course.id, {}))).toBe('invalid-catalog');
    expect(await refusalCode(updateCourse(deps, 999_999, { name: 'x' }))).toBe('not-found');
  });

  it('a location: how it is described', async () => {
    const location = await createLocation(deps, {
      name: 'Leeds Training Centre',
      address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' },
    });
    expect(await updateLocation(deps, location.id, { directions: 'Second floor, lift by reception' })).toMatchObject({
      name: 'Leeds Training Centre',
      directions: 'Second floor, lift by reception',
    });
    expect(await refusalCode(updateLocation(deps, 999_999, { name: 'x' }))).toBe('not-found');
  });
});

describe('agencies page through upcoming training events', () => {
  it('every event in the range once, soonest first, across pages a filter leaves short, and a cursor only for its own range', async () => {
    const paged = await testDeps({ clock: () => new Date('2026-12-01T08:00:00Z') });
    const course = await createCourse(paged, { name: 'BLS adult', code: 'BLS-P1', duration_minutes: 180, certificate_validity_months: 12, price_minor: 6500 });
    const other = await createCourse(paged, {
      name: 'Moving and handling',
      code: 'MH-P1',
      duration_minutes: 240,
      certificate_validity_months: 12,
      price_minor: 5500,
    });
    const location = await createLocation(paged, { name: 'Leeds', address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' } });
    const ours: number[] = [];
    for (let day = 2; day <= 12; day++) {
      const date = `2026-12-${String(day).padStart(2, '0')}`;
      ours.push((await createTrainingEvent(paged, { course_id: course.id, location_id: location.id, date, start_time: '09:00', capacity: 12 })).id);
      await createTrainingEvent(paged, { course_id: other.id, location_id: location.id, date, start_time: '13:00', capacity: 12 });
    }
    // An event on the day after the range, at midnight, is outside it.
    await createTrainingEvent(paged, { course_id: course.id, location_id: location.id, date: '2026-12-13', start_time: '00:00', capacity: 12 });

    const seen: number[] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listTrainingEvents(paged, { course_id: course.id, from: '2026-12-02', to: '2026-12-12', limit: 3, cursor });
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor ?? undefined;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    expect(seen).toEqual(ours);

    // A cursor belongs to the range it was handed out for.
    expect(await refusalCode(listTrainingEvents(paged, { course_id: course.id, from: '2026-12-03', to: '2026-12-12', limit: 3, cursor: cursors[0] }))).toBe(
      'invalid-cursor',
    );
  });

  it("reads a month's events and their seats' locks together; a longer range reads the locks of the page's days after it", async () => {
    const at = await testDeps({ clock: () => new Date('2026-12-01T08:00:00Z') });
    const course = await createCourse(at, { name: 'PMVA', code: 'PMVA-R1', duration_minutes: 240, certificate_validity_months: 12, price_minor: 9000 });
    const location = await createLocation(at, { name: 'York', address: { line1: '2 Stonegate', line2: null, town: 'York', postcode: 'YO1 8AS' } });
    const event = await createTrainingEvent(at, { course_id: course.id, location_id: location.id, date: '2026-12-09', start_time: '09:00', capacity: 4 });
    await holdSeat(at, { type: 'client', clientId: 'cl_reads' }, event.id);
    const watch = watchInFlight(at);
    try {
      const listed = async (to: string) => {
        const { result: page, together } = await watch.during(() => listTrainingEvents(at, { course_id: course.id, from: '2026-12-02', to, limit: 25 }));
        return { seats: page.data.map((e) => e.seats_available), together };
      };
      expect(await listed('2026-12-15')).toEqual({ seats: [3], together: 2 });
      expect(await listed('2027-03-01')).toEqual({ seats: [3], together: 1 });
    } finally {
      watch.stop();
    }
  });
});
