import {
  addWorkingDays,
  beyondHorizon,
  formatWithOffset,
  isCalendarDate,
  readableDate,
  readableDay,
  readableTime,
  wallClock,
  weekdayOf,
  zonedInstant,
} from '../../functions/core/platform/time.js';

const LONDON = 'Europe/London';

describe('wall-clock time in Europe/London', () => {
  it('maps a winter slot to UTC and shows +00:00', () => {
    const instant = zonedInstant('2026-11-23', '09:30', LONDON)!;
    expect(instant.toISOString()).toBe('2026-11-23T09:30:00.000Z');
    expect(formatWithOffset(instant, LONDON)).toBe('2026-11-23T09:30:00+00:00');
  });

  it('maps a summer slot to UTC an hour earlier and shows +01:00', () => {
    const instant = zonedInstant('2026-07-01', '09:30', LONDON)!;
    expect(instant.toISOString()).toBe('2026-07-01T08:30:00.000Z');
    expect(formatWithOffset(instant, LONDON)).toBe('2026-07-01T09:30:00+01:00');
  });

  it('keeps 09:00 at 09:00 across the March change, while the offset moves', () => {
    const before = zonedInstant('2026-03-28', '09:00', LONDON)!;
    const after = zonedInstant('2026-03-30', '09:00', LONDON)!;
    expect(formatWithOffset(before, LONDON)).toBe('2026-03-28T09:00:00+00:00');
    expect(formatWithOffset(after, LONDON)).toBe('2026-03-30T09:00:00+01:00');
    expect(after.getTime() - before.getTime()).toBe((48 - 1) * 3600_000);
  });

  it('has no 01:30 on the spring-forward night, and the first 01:30 in autumn', () => {
    expect(zonedInstant('2026-03-29', '01:30', LONDON)).toBeUndefined();
    const autumn = zonedInstant('2026-10-25', '01:30', LONDON)!;
    expect(formatWithOffset(autumn, LONDON)).toBe('2026-10-25T01:30:00+01:00');
  });

  it('reads the wall clock and weekday back', () => {
    expect(wallClock(new Date('2026-07-01T23:30:00Z'), LONDON)).toEqual({ date: '2026-07-02', time: '00:30', weekday: 4 });
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(weekdayOf('2026-11-22')).toBe(7);
  });

  it('rejects calendar dates that do not exist', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-2-3')).toBe(false);
  });

  it("puts the booking horizon 400 days after today on the service's wall clock", () => {
    // 23:30 UTC on 1 July is already 2 July in London: the count starts there.
    const now = new Date('2026-07-01T23:30:00Z');
    expect(beyondHorizon('2027-08-06', now, LONDON)).toBe(false);
    expect(beyondHorizon('2027-08-07', now, LONDON)).toBe(true);
    expect(beyondHorizon('2027-08-06', now, 'UTC')).toBe(true);
    expect(beyondHorizon('9999-12-31', now, LONDON)).toBe(true);
  });
});

describe('dates as people read them', () => {
  it('spells the day, date, year and London time the same on every page and e-mail', () => {
    expect(readableDate('2026-12-02')).toBe('Wednesday 2 December 2026');
    expect(readableDate('2026-12-02', { year: false })).toBe('Wednesday 2 December');
    expect(readableTime('2026-12-02T10:00:00.000Z', LONDON)).toBe('Wednesday 2 December 2026 at 10:00');
    // British Summer Time, and an instant already the next day in London.
    expect(readableTime('2026-07-01T08:30:00.000Z', LONDON)).toBe('Wednesday 1 July 2026 at 09:30');
    expect(readableDay('2026-07-01T23:30:00.000Z', LONDON)).toBe('Thursday 2 July 2026');
  });

  it('counts working days forwards and backwards past weekends and bank holidays', () => {
    const holidays = ['2026-12-25', '2026-12-28'];
    expect(addWorkingDays('2026-12-24', 1, holidays)).toBe('2026-12-29');
    expect(addWorkingDays('2026-12-29', -1, holidays)).toBe('2026-12-24');
    expect(addWorkingDays('2026-12-29', 0, holidays)).toBe('2026-12-29');
  });
});
