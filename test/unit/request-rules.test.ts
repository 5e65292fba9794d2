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
});

describe('named conditions', () => {
  it('combine with each other and with an update without a clashing placeholder', () => {
    const both = allOf(versionIs(3), itemAnswerable(['sent', 'opened'], NOW), lastReminderIs(null));
    expect(both.values).toMatchObject({ ':seen': 3, ':open0': 'sent', ':open1': 'opened', ':now': NOW.toISOString(), ':null': null });
    expect(both.expression).toContain('#status IN (:open0, :open1)');
  });
});
