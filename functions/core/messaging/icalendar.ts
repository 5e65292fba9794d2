/**
 * A small iCalendar (RFC 5545) writer for one-event invitations and their
 * cancellations (iTIP, RFC 5546: METHOD REQUEST or CANCEL). Calendars match
 * an update to the event they hold by `UID` and keep the highest `SEQUENCE`,
 * so a booking keeps one UID and each change counts up.
 */

export interface Person {
  name: string;
  email: string;
}

export interface CalendarEvent {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  /** When this version of the invitation was made. */
  stamp: Date | string;
  start: Date | string;
  end: Date | string;
  title: string;
  description: string;
  location?: string;
  url?: string;
  organizer: Person;
  attendee: Person;
}

/** The attachment's media type (iTIP wants the method in it too). */
export const calendarContentType = (method: CalendarEvent['method']): string => `text/calendar; charset=utf-8; method=${method}`;

/** UTC date-time form: 20261124T094500Z. */
export const utcStamp = (at: Date | string): string =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT value: backslash, semicolon, comma and line breaks escaped (section 3.3.11); other controls dropped. */
export const escapeText = (value: string): string =>
  value
    .replace(/\r\n?/g, '\n')
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/[\p{Cc}]/gu, '');

/** Parameter value (CN): no controls or double quotes are allowed at all; quoted when it holds `:;,`. */
const paramValue = (value: string): string => {
  const clean = value.replace(/[\p{Cc}"]/gu, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
};

/** A calendar address; an address with a control character or a colon cannot be one, so it is dropped to its safe part. */
const mailto = (email: string): string => `mailto:${email.replace(/[\p{Cc}\s]/gu, '')}`;

/**
 * Folds a content line so no line exceeds 75 octets (section 3.1): the
 * continuation starts with one space, and a UTF-8 sequence is never split.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

export function writeCalendar(event: CalendarEvent): string {
  const cancelled = event.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Agency API//Bookings//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.method}`,
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${event.url.replace(/[\p{Cc}\s]/gu, '')}`] : []),
    `ORGANIZER;CN=${paramValue(event.organizer.name)}:${mailto(event.organizer.email)}`,
    `ATTENDEE;CN=${paramValue(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:${mailto(event.attendee.email)}`,
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
