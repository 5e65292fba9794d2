import type { AvailabilityWindow, Catalog, InterviewType } from '../../functions/core/clinical-interview/catalog.js';
import { slotsOn } from '../../functions/core/clinical-interview/catalog.js';
import { candidateSlots } from '../../functions/core/clinical-interview/slots.js';
import { formatWithOffset } from '../../functions/core/platform/time.js';
import { gbp } from '../../functions/core/commerce/money.js';

const LONDON = 'Europe/London';
const rn: InterviewType = { id: 1, name: 'RN', durationMinutes: 45, price: gbp(4500), active: true };
const half: InterviewType = { id: 2, name: 'Short', durationMinutes: 30, price: gbp(2000), active: true };
const window = (interviewTypeId: number, weekday: number, start: string, end: string): AvailabilityWindow => ({ interviewTypeId, weekday, start, end });

function catalog(...interviewers: AvailabilityWindow[][]): Catalog {
  return { types: [rn, half], interviewers: interviewers.map((availability, n) => ({ id: n + 1, name: `Dr ${n + 1}`, availability })) };
}

/** What a caller sees of each slot: wall-clock time, interviewer, and start and end with their offsets. */
const shown = (slots: ReturnType<typeof slotsOn>) =>
  slots.map((s) => `${s.time} #${s.interviewerId} ${formatWithOffset(s.startAt, LONDON)} → ${formatWithOffset(s.endAt, LONDON)}`);

describe('slots from weekly availability', () => {
  it('runs back to back from the start of each window, and never past its end', () => {
    // Monday 23 November 2026; 09:00-12:45 fits five 45-minute interviews, 13:00-14:00 one.
    const slots = slotsOn(catalog([window(1, 1, '09:00', '12:45'), window(1, 1, '13:00', '14:00')]), rn, '2026-11-23', LONDON);
    expect(slots.map((s) => s.time)).toEqual(['09:00', '09:45', '10:30', '11:15', '12:00', '13:00']);
    expect(shown(slots)[0]).toBe('09:00 #1 2026-11-23T09:00:00+00:00 → 2026-11-23T09:45:00+00:00');
    expect(slots[0]).toMatchObject({ interviewTypeId: 1, interviewerId: 1, date: '2026-11-23' });
  });

  it('uses only the windows of that weekday and that interview type', () => {
    const cat = catalog([window(1, 2, '09:00', '10:00'), window(2, 1, '09:00', '10:00'), window(1, 1, '15:00', '15:45')]);
    expect(slotsOn(cat, rn, '2026-11-23', LONDON).map((s) => s.time)).toEqual(['15:00']);
    expect(slotsOn(cat, half, '2026-11-23', LONDON).map((s) => s.time)).toEqual(['09:00', '09:30']);
    expect(slotsOn(cat, rn, '2026-11-24', LONDON).map((s) => s.time)).toEqual(['09:00']);
    expect(slotsOn(cat, rn, '2026-11-25', LONDON)).toEqual([]);
  });

  it('lists every interviewer free at a time, soonest first, then by interviewer', () => {
    const cat = catalog([window(2, 1, '10:00', '11:00')], [window(2, 1, '09:30', '10:30')]);
    expect(slotsOn(cat, half, '2026-11-23', LONDON).map((s) => `${s.time} #${s.interviewerId}`)).toEqual(['09:30 #2', '10:00 #1', '10:00 #2', '10:30 #1']);
  });

  it('shows a summer slot at the same wall-clock time, an hour earlier in UTC', () => {
    const [slot] = slotsOn(catalog([window(1, 3, '09:00', '09:45')]), rn, '2026-07-01', LONDON);
    expect(slot!.startAt.toISOString()).toBe('2026-07-01T08:00:00.000Z');
    expect(formatWithOffset(slot!.startAt, LONDON)).toBe('2026-07-01T09:00:00+01:00');
  });

  it('skips the hour the clocks jump over on the last Sunday of March', () => {
    // Sunday 29 March 2026: 01:00 GMT is followed by 02:00 BST.
    const slots = slotsOn(catalog([window(2, 7, '00:00', '03:00')]), half, '2026-03-29', LONDON);
    expect(shown(slots)).toEqual([
      '00:00 #1 2026-03-29T00:00:00+00:00 → 2026-03-29T00:30:00+00:00',
      // Thirty minutes long as ever, so it ends at 02:00 on the new clock.
      '00:30 #1 2026-03-29T00:30:00+00:00 → 2026-03-29T02:00:00+01:00',
      '02:00 #1 2026-03-29T02:00:00+01:00 → 2026-03-29T02:30:00+01:00',
      '02:30 #1 2026-03-29T02:30:00+01:00 → 2026-03-29T03:00:00+01:00',
    ]);
  });

  it('offers the repeated hour once, on its first pass, on the last Sunday of October', () => {
    // Sunday 25 October 2026: 01:00-02:00 happens twice, BST then GMT.
    const slots = slotsOn(catalog([window(2, 7, '00:30', '02:30')]), half, '2026-10-25', LONDON);
    expect(shown(slots)).toEqual([
      '00:30 #1 2026-10-25T00:30:00+01:00 → 2026-10-25T01:00:00+01:00',
      '01:00 #1 2026-10-25T01:00:00+01:00 → 2026-10-25T01:30:00+01:00',
      '01:30 #1 2026-10-25T01:30:00+01:00 → 2026-10-25T01:00:00+00:00',
      '02:00 #1 2026-10-25T02:00:00+00:00 → 2026-10-25T02:30:00+00:00',
    ]);
    // Between the 01:30 and 02:00 slots an hour and a half passes, not thirty minutes.
    expect(slots[3]!.startAt.getTime() - slots[2]!.startAt.getTime()).toBe(90 * 60_000);
  });

  it('keeps a weekly slot at 09:00 wall clock across both changes', () => {
    const cat = catalog([window(1, 7, '09:00', '09:45')]);
    const at = (date: string) => formatWithOffset(slotsOn(cat, rn, date, LONDON)[0]!.startAt, LONDON);
    expect(['2026-03-22', '2026-03-29', '2026-10-25', '2026-11-01'].map(at)).toEqual([
      '2026-03-22T09:00:00+00:00',
      '2026-03-29T09:00:00+01:00',
      '2026-10-25T09:00:00+00:00',
      '2026-11-01T09:00:00+00:00',
    ]);
  });
});

describe('the slots a hold or a booking page may take', () => {
  const cat = catalog([window(1, 1, '09:00', '10:30')], [window(1, 1, '09:00', '09:45')]);
  const now = new Date('2026-11-23T09:00:00Z');

  it('are the interviewers free at exactly that date and time, still in the future', () => {
    const { type, slots } = candidateSlots(cat, 1, '2026-11-23', '09:45', LONDON, now);
    expect(type).toBe(rn);
    expect(slots.map((s) => s.interviewerId)).toEqual([1]);
    expect(candidateSlots(cat, 1, '2026-11-30', '09:00', LONDON, now).slots.map((s) => s.interviewerId)).toEqual([1, 2]);
  });

  it('refuses a slot that has started, is not offered, or is of an inactive type', () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return 'offered';
      } catch (err) {
        return `${(err as { code: string }).code}: ${(err as Error).message}`;
      }
    };
    expect(code(() => candidateSlots(cat, 1, '2026-11-23', '09:00', LONDON, now))).toBe('slot-unavailable: No RN slot is offered on 2026-11-23 at 09:00');
    expect(code(() => candidateSlots(cat, 1, '2026-11-23', '09:15', LONDON, now))).toBe('slot-unavailable: No RN slot is offered on 2026-11-23 at 09:15');
    const inactive = { ...cat, types: [{ ...rn, active: false }] };
    expect(code(() => candidateSlots(inactive, 1, '2026-11-30', '09:00', LONDON, now))).toBe('slot-unavailable: There is no active interview type 1');
    expect(code(() => candidateSlots(cat, 9, '2026-11-30', '09:00', LONDON, now))).toBe('slot-unavailable: There is no active interview type 9');
  });
});
