import {
  ERASED_NAME,
  type ActiveItem,
  type DataSubjectAdapter,
  type Kept,
  type StoredItem,
  type SubjectFile,
  type SubjectFinder,
} from '../data-rights/adapter.js';
import type { DataSubjectFamily } from '../data-rights/families.js';
import { exportFields } from '../data-rights/adapter.js';
import { inviteKeys } from './invite-keys.js';
import { changeKeys } from './change-log.js';
import { bookingKeys } from './records.js';

/**
 * The data subject adapter every booking family shares: the person is a
 * booking's candidate (and an invite's, in the course families). Bookings and
 * invites are exported; the change-log copy of each booking is erased with it.
 * A booking not cancelled that has not ended, or waits for the candidate's
 * payment, stops an erasure. An erased booking keeps its ids, dates, status
 * and amounts (the ledger's entries point at it); its payment link answers 410.
 */

/** UK accounting records are kept six years after the end of the financial year; six years and a year's margin from the booking. */
const FINANCE_YEARS = 7;

// The views show `first_name last_name` as one name: "Erased".
const erasedCandidate = { first_name: ERASED_NAME, last_name: '', email: null, phone: null, job_role: null, nmc_number: null };

export interface BookingSubjectOptions {
  /** The family's own personal fields of a booking (a delivery address), and what they become. */
  ownFields?: Record<string, unknown>;
  /** The booking's files in the documents bucket (an interview report), and what its fields become without them. */
  files?: { of: (booking: StoredItem) => SubjectFile[]; erased: Record<string, unknown> };
}

const isBooking = (family: DataSubjectFamily, item: StoredItem) => item.sk.startsWith(bookingKeys.familyPrefix(family));
const isInvite = (family: DataSubjectFamily, item: StoredItem) => item.sk.startsWith(inviteKeys.prefix(family));

/** `invites`: the course families send invites to candidates, which are the person's too. */
export function bookingSubjectFinder(family: DataSubjectFamily, options: { invites?: boolean } = {}): SubjectFinder {
  return {
    family,
    prefixes: [bookingKeys.familyPrefix(family), changeKeys.familyPrefix(family), ...(options.invites ? [inviteKeys.prefix(family)] : [])],
    active(item, now): ActiveItem | undefined {
      if (!isBooking(family, item) || item.booking_status === 'cancelled') return undefined;
      if (item.booking_status === 'pending_payment') return { type: 'booking', id: item.id as number, reason: 'waits for the candidate’s payment' };
      // Marked complete (the interview or training took place): nothing is to come.
      if (item.interview_status === 'completed' || item.training_status === 'completed') return undefined;
      if (String(item.end_at) > now.toISOString()) return { type: 'booking', id: item.id as number, reason: 'has not taken place yet' };
      return undefined;
    },
  };
}

export function bookingSubjectAdapter(finder: SubjectFinder, options: BookingSubjectOptions = {}): DataSubjectAdapter {
  const family = finder.family;
  return {
    ...finder,
    section: (item) => (isBooking(family, item) ? 'bookings' : isInvite(family, item) ? 'invites' : undefined),
    view: (deps, item) => exportFields(item, deps.config.serviceTimeZone),
    erasedFields(item, now) {
      const at = now.toISOString();
      if (isInvite(family, item)) {
        // An unused invite is closed now: its link answers 410 like any expired invite.
        const open = ['queued', 'sent', 'opened'].includes(String(item.status)) && !(typeof item.expires_at === 'string' && item.expires_at <= at);
        return {
          candidate: { first_name: ERASED_NAME, last_name: '', email: null },
          message: null,
          erased_at: at,
          ...(open ? { expires_at: at, updated_at: at } : {}),
        };
      }
      const cancellation = item.cancellation as Record<string, unknown> | undefined;
      return {
        candidate: erasedCandidate,
        ...(cancellation ? { cancellation: { ...cancellation, reason: null } } : {}),
        ...options.ownFields,
        ...(options.files && options.files.of(item).length > 0 ? options.files.erased : {}),
        erased_at: at,
      };
    },
    files: (item) => (options.files && isBooking(family, item) ? options.files.of(item) : []),
    kept(items): Kept[] {
      const paid = items.filter((i) => isBooking(family, i) && i.pay_status !== undefined && i.pay_status !== 'pending');
      if (paid.length === 0) return [];
      const last = paid
        .map((i) => String(i.created_at))
        .sort()
        .at(-1)!;
      const until = new Date(last);
      until.setUTCFullYear(until.getUTCFullYear() + FINANCE_YEARS);
      return [
        {
          what: `Bookings ${paid.map((i) => i.id).join(', ')}: ids, dates, course or interview, price and payment status, and their ledger entries (no name or contact details)`,
          why: 'Finance records the agency must keep for HMRC (six years after the end of the financial year)',
          until: until.toISOString().slice(0, 10),
        },
      ];
    },
  };
}
