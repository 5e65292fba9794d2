import { refuseCandidateAddress } from '../../functions/core/requests/recipients.js';
import { effectiveItemStatus, effectiveStatus, reminderDue } from '../../functions/core/requests/status.js';
import { itemAnswerable, versionIs } from '../../functions/core/requests/store.js';
import { lastReminderIs } from '../../functions/core/requests/reminders.js';
import { allOf } from '../../functions/core/platform/transact.js';

const NOW = new Date('2026-11-23T09:00:00.000Z');
const LATER = '2026-11-30T09:00:00.000Z';
const PAST = '2026-11-23T09:00:00.000Z';

describe('a request status by the clock', () => {
  it.each(['pending', 'in_progress', 'awaiting_review'] as const)('an open request (%s) is expired from its expiry on, sweep or not', (status) => {
    expect(effectiveStatus({ status, expires_at: LATER }, NOW)).toBe(status);
    expect(effectiveStatus({ status, expires_at: PAST }, NOW)).toBe('expired');
  });

  it.each(['completed', 'cancelled'] as const)('a closed request (%s) stays as it ended', (status) => {
    expect(effectiveStatus({ status, expires_at: PAST }, NOW)).toBe(status);
  });
});

describe('an item status by its request', () => {
  const OUTSTANDING = ['sent', 'opened'];
  it('an outstanding item ends with its request: cancelled, or expired by either clock', () => {
    expect(effectiveItemStatus({ status: 'sent', expires_at: LATER }, { status: 'cancelled', expires_at: LATER }, OUTSTANDING, NOW)).toBe('cancelled');
    expect(effectiveItemStatus({ status: 'opened', expires_at: PAST }, { status: 'in_progress', expires_at: LATER }, OUTSTANDING, NOW)).toBe('expired');
    expect(effectiveItemStatus({ status: 'opened', expires_at: LATER }, { status: 'in_progress', expires_at: PAST }, OUTSTANDING, NOW)).toBe('expired');
    expect(effectiveItemStatus({ status: 'opened', expires_at: LATER }, { status: 'in_progress', expires_at: LATER }, OUTSTANDING, NOW)).toBe('opened');
  });

  it('an answered item keeps its status whatever happens to the request', () => {
    expect(effectiveItemStatus({ status: 'completed', expires_at: PAST }, { status: 'cancelled', expires_at: PAST }, OUTSTANDING, NOW)).toBe('completed');
  });
});

describe('reminders', () => {
  const remindable = ['sent', 'opened'];
  it('are due 24 hours after the link was sent, then 24 hours after the last reminder', () => {
    const sent = { status: 'sent', sent_at: '2026-11-22T09:00:00.001Z', last_reminder_sent_at: null };
    expect(reminderDue(sent, remindable, NOW)).toBe(false);
    expect(reminderDue({ ...sent, sent_at: '2026-11-22T09:00:00.000Z' }, remindable, NOW)).toBe(true);
    expect(reminderDue({ ...sent, sent_at: '2026-11-01T00:00:00.000Z', last_reminder_sent_at: '2026-11-22T10:00:00.000Z' }, remindable, NOW)).toBe(false);
  });

  it('are never due to an actor who has answered', () => {
    expect(reminderDue({ status: 'completed', sent_at: '2026-11-01T00:00:00.000Z', last_reminder_sent_at: null }, remindable, NOW)).toBe(false);
  });
});

describe('recipients', () => {
  it('refuses the candidate as a third party, on that recipient field, whatever the case and spaces', () => {
    expect(() => refuseCandidateAddress('Ann@Example.org', ['a@b.example', ' ann@example.ORG '], (i) => `/referees/${i}/referee_email`, 'not you')).toThrow(
      expect.objectContaining({ code: 'invalid-field', message: 'not you', extensions: { pointer: '/referees/1/referee_email' } }),
    );
    expect(() => refuseCandidateAddress('ann@example.org', ['a@b.example'], String, 'not you')).not.toThrow();
  });

  it('refuses the candidate behind a +tag in the local part, on either side', () => {
    const refusal = (candidate: string, third: string) => {
      try {
        refuseCandidateAddress(candidate, ['someone@else.example', third], (i) => `/referees/${i}/referee_email`, 'not you');
        return undefined;
      } catch (err) {
        return (err as { extensions: { pointer: string } }).extensions.pointer;
      }
    };
    expect(refusal('ann@example.org', 'Ann+referee@Example.org')).toBe('/referees/1/referee_email');
    expect(refusal('ann+jobs@example.org', 'ann@example.org')).toBe('/referees/1/referee_email');
    expect(refusal('ann+jobs@example.org', 'ann+other@example.org')).toBe('/referees/1/referee_email');
    // Another mailbox: a different local part, or the same one at another domain.
    expect(refusal('ann@example.org', 'anna+ann@example.org')).toBeUndefined();
    expect(refusal('ann@example.org', 'ann+x@example.net')).toBeUndefined();
  });
});

describe('named conditions', () => {
  it('combine with each other and with an update without a clashing placeholder', () => {
    const both = allOf(versionIs(3), itemAnswerable(['sent', 'opened'], NOW), lastReminderIs(null));
    expect(both.values).toMatchObject({ ':seen': 3, ':open0': 'sent', ':open1': 'opened', ':now': NOW.toISOString(), ':null': null });
    expect(both.expression).toContain('#status IN (:open0, :open1)');
  });
});

describe('request groups: pure rules', () => {
  it('training: a course is valid for its subject refresher months from completion; configuration adds codes and sets months', async () => {
    const { cstfRefresherMonths, trainingValidUntil } = await import('../../functions/core/portal-v2/groups/training.js');
    expect(trainingValidUntil('fire_safety', '2026-01-31')).toBe('2028-01-31');
    expect(trainingValidUntil('information_governance', '2024-02-29')).toBe('2025-02-28');
    const wales = cstfRefresherMonths('{"violence_and_aggression":36,"fire_safety":12}');
    expect(wales).toMatchObject({ violence_and_aggression: 36, fire_safety: 12, moving_handling: 24 });
    expect(Object.keys(wales)).toHaveLength(12);
    expect(() => cstfRefresherMonths('{"Fire Safety":0}')).toThrow(/CSTF_REFRESHER_MONTHS/);
  });

  it('derives a request status from its items: pending, in progress, awaiting review, completed with an outcome', async () => {
    const { derivedGroupStatus } = await import('../../functions/core/requests/group.js');
    const of = (...statuses: string[]) => derivedGroupStatus({}, statuses.map((status) => ({ status, data: null, type: 'x' })) as never);
    expect(of('requested', 'requested')).toEqual({ status: 'pending', outcome: null });
    expect(of('submitted', 'requested')).toEqual({ status: 'in_progress', outcome: null });
    expect(of('submitted', 'accepted')).toEqual({ status: 'awaiting_review', outcome: null });
    expect(of('accepted', 'confirmed')).toEqual({ status: 'completed', outcome: 'satisfied' });
    expect(of('confirmed', 'denied')).toEqual({ status: 'completed', outcome: 'not_satisfied' });
    const notFit = derivedGroupStatus({ unsatisfying: (i) => i.data?.outcome === 'not_fit' }, [
      { status: 'accepted', data: { outcome: 'not_fit' }, type: 'clearance' },
    ] as never);
    expect(notFit).toEqual({ status: 'completed', outcome: 'not_satisfied' });
  });

  it('reads page fields: plain words per field, dates not in the future, control characters refused', async () => {
    const { readFields } = await import('../../functions/core/requests/fields.js');
    const specs = [
      { name: 'completed_on', label: 'Completed on', type: 'date', when: 'past' },
      { name: 'provider', label: 'Provider', type: 'text', max: 10 },
      { name: 'aligned', label: 'Aligned', type: 'boolean' },
      { name: 'lists', label: 'Lists', type: 'multi', options: ['adults', 'children'] },
    ] as const;
    expect(readFields(specs, { completed_on: '2026-11-01', provider: 'Skills', aligned: 'yes', lists: ['adults'] }, '2026-11-22')).toEqual({
      data: { completed_on: '2026-11-01', provider: 'Skills', aligned: true, lists: ['adults'] },
    });
    expect(readFields(specs, { completed_on: '2026-02-30', provider: 'x\u202Ey' }, '2026-11-22')).toEqual({
      errors: { completed_on: 'Give a date as YYYY-MM-DD', provider: 'Remove control or formatting characters' },
    });
    expect(readFields(specs, { completed_on: '2026-12-01', provider: '', lists: ['pets'] }, '2026-11-22')).toEqual({
      errors: { completed_on: 'This date cannot be in the future', provider: 'Please fill this in', lists: 'Choose from adults, children' },
    });
  });
});
