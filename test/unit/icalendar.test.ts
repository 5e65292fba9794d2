import ICAL from 'ical.js';
import { writeCalendar, type CalendarEvent } from '../../functions/core/messaging/icalendar.js';

/** The invitation as a calendar reads it: ical.js (a maintained RFC 5545 parser) is the reader. */

const event: CalendarEvent = {
  method: 'REQUEST',
  uid: 'booking-clinical-interview-7@agency-api.local',
  sequence: 2,
  stamp: '2026-11-20T10:00:00.000Z',
  start: '2026-11-24T09:45:00.000Z',
  end: '2026-11-24T10:15:00.000Z',
  title: 'Mental Health Nurse clinical interview; part 1, with notes \\ remarks',
  description: 'Your interview is a video call.\nJoin: https://meet.jit.si/clinical-interview-0123456789\nMeeting ID: 0123456789, password: aB3x',
  location: 'https://meet.jit.si/clinical-interview-0123456789',
  organizer: { name: 'Northwind Care, Ltd: Leeds', email: 'no-reply@agency-api.local' },
  attendee: { name: 'Zoë Ó Briain-Łukasiewicz', email: 'zoe@example.org' },
};

const read = (text: string) => {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
};

it('reads back every field as written, the special characters and line breaks too', () => {
  const { calendar, vevent, event: parsed } = read(writeCalendar(event));
  expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
  expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
  expect(parsed.uid).toBe(event.uid);
  expect(parsed.sequence).toBe(2);
  expect(parsed.summary).toBe(event.title);
  expect(parsed.description).toBe(event.description);
  expect(parsed.location).toBe(event.location);
  expect(parsed.startDate.toJSDate().toISOString()).toBe(event.start);
  expect(parsed.endDate.toJSDate().toISOString()).toBe(event.end);
  expect(parsed.startDate.zone.tzid).toBe('UTC');
  expect((vevent.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString()).toBe(event.stamp);
  expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
  const organizer = vevent.getFirstProperty('organizer')!;
  expect(organizer.getFirstValue()).toBe('mailto:no-reply@agency-api.local');
  expect(organizer.getParameter('cn')).toBe('Northwind Care, Ltd: Leeds');
  const attendee = parsed.attendees[0]!;
  expect(attendee.getFirstValue()).toBe('mailto:zoe@example.org');
  expect(attendee.getParameter('cn')).toBe('Zoë Ó Briain-Łukasiewicz');
});

it('folds lines at 75 octets with CRLF, never inside a UTF-8 character', () => {
  const long = { ...event, description: 'Łódź '.repeat(40) + '\n' + 'x'.repeat(200), attendee: { name: 'Ł'.repeat(60), email: 'zoe@example.org' } };
  const text = writeCalendar(long);
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const lines = text.split('\r\n').slice(0, -1);
  for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  expect(lines.some((l) => l.startsWith(' '))).toBe(true);
  // A split UTF-8 sequence would decode to U+FFFD somewhere.
  expect(text).not.toContain('\uFFFD');
  const { event: parsed } = read(text);
  expect(parsed.description).toBe(long.description);
  expect(parsed.attendees[0]!.getParameter('cn')).toBe(long.attendee.name);
});

it('a cancellation keeps the UID and says CANCEL and CANCELLED', () => {
  const { calendar, vevent, event: parsed } = read(writeCalendar({ ...event, method: 'CANCEL', sequence: 3 }));
  expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
  expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  expect(parsed.uid).toBe(event.uid);
  expect(parsed.sequence).toBe(3);
});

it('a name cannot smuggle in a property: controls are dropped, not turned into new lines', () => {
  const text = writeCalendar({
    ...event,
    attendee: { name: 'Eve\r\nATTENDEE:mailto:spy@evil.example', email: 'eve@example.org\r\nX: 1' },
    title: 'Interview\r\nSTATUS:CANCELLED',
  });
  const { vevent, event: parsed } = read(text);
  expect(parsed.attendees).toHaveLength(1);
  expect(vevent.getAllProperties('status').map((p) => p.getFirstValue())).toEqual(['CONFIRMED']);
  expect(parsed.summary).toBe('Interview\nSTATUS:CANCELLED');
});
