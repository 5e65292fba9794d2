import { getClient } from '../access/clients.js';
import type { EventKind } from '../events/kinds.js';
import { emailPut } from '../events/outbox.js';
import { bookingCancelled, bookingConfirmed, bookingRescheduled, type EmailContent } from '../messaging/email-templates.js';
import { calendarContentType, writeCalendar } from '../messaging/icalendar.js';
import { addressOf, DEFAULT_EMAIL_FROM } from '../messaging/sender.js';
import type { Deps } from '../platform/deps.js';
import { readableTime } from '../platform/time.js';
import { part, type Part } from '../platform/transact.js';
import type { BookingEvent, BookingKind, BookingRecord } from './kind.js';

/**
 * What the candidate hears when a booking changes: an e-mail with an
 * iCalendar invitation when it is confirmed, an updated one (same UID, next
 * SEQUENCE) when it moves, and a cancellation when it ends. Each goes out
 * through the outbox in the change's own transaction.
 */

export type Notice = 'confirmed' | 'rescheduled' | 'cancelled';

/**
 * The notice a change sends, if any. Only a confirmed (booked) booking is
 * invited or moved; an unpaid one hears at payment. Any cancellation is
 * told, the payment-expiry sweep's too.
 */
export function noticeOf(event: BookingEvent | EventKind | undefined, after: BookingRecord): Notice | undefined {
  switch (event) {
    case 'booking.created':
    case 'booking.confirmed':
      return after.booking_status === 'booked' ? 'confirmed' : undefined;
    case 'booking.rescheduled':
      return after.booking_status === 'booked' ? 'rescheduled' : undefined;
    case 'booking.cancelled':
      return 'cancelled';
    default:
      return undefined;
  }
}

/** The SEQUENCE of the next invitation: 0 for the first, one more than the last after that. */
export const nextSequence = (booking: BookingRecord): number => (booking.calendar_sequence === undefined ? 0 : booking.calendar_sequence + 1);

/** One UID per booking for all its invitations, so calendars update the entry they hold. */
export const calendarUid = (booking: BookingRecord, from: string): string =>
  `booking-${booking.family}-${booking.id}@${addressOf(from).split('@')[1] ?? 'agency-api.local'}`;

/**
 * The outbox part that e-mails the candidate about `booking` (as changed,
 * its `calendar_sequence` already the new one). `before` is the booking as it
 * was, for a reschedule's "moved from".
 */
export function noticePart<B extends BookingRecord>(deps: Deps, kind: BookingKind<B>, notice: Notice, booking: B, input: { agency: string; before?: B }): Part {
  const tz = deps.config.serviceTimeZone;
  const from = deps.config.emailFrom ?? DEFAULT_EMAIL_FROM;
  const entry = kind.calendarEntry(booking);
  const common = {
    candidateName: entry.attendee.name,
    title: entry.title,
    agency: input.agency,
    when: readableTime(booking.start_at, tz),
    details: entry.description,
  };
  const content: EmailContent =
    notice === 'confirmed'
      ? bookingConfirmed(common)
      : notice === 'rescheduled'
        ? bookingRescheduled({ ...common, previously: readableTime((input.before ?? booking).start_at, tz) })
        : bookingCancelled({ ...common, unpaid: booking.cancellation?.reason === 'payment_expired' });
  const method = notice === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const ics = writeCalendar({
    method,
    uid: calendarUid(booking, from),
    sequence: booking.calendar_sequence ?? 0,
    stamp: deps.clock(),
    start: booking.start_at,
    end: booking.end_at,
    title: entry.title,
    description: entry.description,
    location: entry.location,
    organizer: { name: input.agency, email: addressOf(from) },
    attendee: entry.attendee,
  });
  const attachment = { filename: notice === 'cancelled' ? 'cancellation.ics' : 'invitation.ics', content_type: calendarContentType(method), content: ics };
  // A booking cancelled before it was ever confirmed (unpaid) is in no calendar: there is nothing to take out of one.
  const inCalendar = notice !== 'cancelled' || input.before?.calendar_sequence !== undefined;
  return part('notice', emailPut(deps, { to: entry.attendee.email, ...content, attachments: inCalendar ? [attachment] : [] }));
}

/** The agency's name as the candidate knows it (the client account's name). */
export const agencyName = async (deps: Deps, clientId: string): Promise<string> => (await getClient(deps, clientId))?.name ?? '';
