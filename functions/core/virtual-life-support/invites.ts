import type { ClientAccount } from '../access/clients.js';
import type { BookingLinks } from '../bookings/commit.js';
import { addDays, wallClock } from '../platform/time.js';
import type { Deps } from '../platform/deps.js';
import { fieldRefusal } from '../platform/errors.js';
import type { PayOption } from '../platform/vocabulary.js';
import { agencyContactOf, holderOf, inviteSeatHold, inviteUse, usableInvite } from '../practical-training/invites-page.js';
import { inviteOf, refuseInvoice, type InviteItem, type InviteOptions, type InvitePlan } from '../practical-training/invites.js';
import { createVlsBooking, type DeliveryAddress, type VlsBookingView } from './bookings.js';
import { loadCourses, VLS_FAMILY, type VlsCourse } from './catalogue.js';
import { holdTimeslot, listTimeslots, MAX_RANGE_DAYS, releaseTimeslot } from './timeslots.js';

/**
 * Life-support request invites (design portal-and-facades 1.2, decision 11):
 * internal to this family, which has no invite operations. A portal v2
 * life_support request writes one; the family e-mails its link; the
 * candidate's page lists the course's timeslots and books one (with a
 * delivery address when the course posts a manikin). The invite is the
 * practical training family's kind of record, kept under this family's keys.
 */

export interface NewVlsInvite {
  candidate: { first_name: string; last_name: string; email: string };
  course_id: number;
  pay_option: PayOption;
}

/** The invite of an active course, checked (invoicing) and ready for the request's transaction. */
export async function planVlsInvite(deps: Deps, client: ClientAccount, input: NewVlsInvite, link: (token: string) => string, options: InviteOptions): Promise<InvitePlan> {
  refuseInvoice(client, input.pay_option);
  const course = (await loadCourses(deps)).find((c) => c.id === input.course_id && c.active);
  if (!course) throw fieldRefusal('/course_id', `No active virtual life-support course ${input.course_id}`);
  return inviteOf(deps, VLS_FAMILY, client, { candidate: input.candidate, pay_option: input.pay_option, course: { id: course.id, name: course.name, code: course.code } }, { invite: link }, options);
}

/** What the candidate's page offers: the course, and its timeslots with seats over the next weeks (never past the invite). */
export async function vlsInviteOffer(deps: Deps, invite: InviteItem): Promise<{ course: VlsCourse | undefined; slots: Awaited<ReturnType<typeof listTimeslots>> }> {
  const course = (await loadCourses(deps)).find((c) => c.id === invite.course.id);
  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const slots = course ? await listTimeslots(deps, { courseId: course.id, from: today, to: addDays(today, MAX_RANGE_DAYS - 1) }) : [];
  return { course, slots };
}

export interface VlsInviteBooking {
  date: string;
  time: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_role: string;
  nmc_number: string | null;
  delivery_address?: Omit<DeliveryAddress, 'line2'> & { line2?: string | null };
}

/**
 * POST /invite/{t} of this family: holds a seat of the chosen timeslot for
 * the invite and books it at once with the agency's `pay_option`; the
 * booking's transaction uses the invite and books the request's item. A
 * refusal gives the seat back; the invite stays usable.
 */
export async function bookVlsWithInvite(deps: Deps, token: string, input: VlsInviteBooking, links: BookingLinks): Promise<VlsBookingView> {
  const invite = await usableInvite(deps, token, VLS_FAMILY);
  const { course } = await vlsInviteOffer(deps, invite);
  if (course?.equipment_required && !input.delivery_address) throw fieldRefusal('/delivery_address', `${course.name} posts a manikin to you: give the address to send it to`);
  const holder = holderOf(invite);
  // An earlier attempt's hold (a refused charge, a lost answer) is given back first: the invite holds one seat at a time.
  const earlier = await inviteSeatHold(deps, invite);
  if (earlier) await releaseTimeslot(deps, holder, earlier.hold_hash).catch(() => undefined);
  const hold = await holdTimeslot(deps, holder, { courseId: invite.course.id, date: input.date, time: input.time });
  const { date: _d, time: _t, ...candidate } = input;
  try {
    return await createVlsBooking(deps, invite.client_id, { ...candidate, ...agencyContactOf(invite), hold_hash: hold.hold_hash, pay_option: invite.pay_option }, links, {
      holder,
      bookedBy: 'Candidate',
      bookingInviteId: invite.id,
      source: invite.source,
      extra: inviteUse(deps, invite, token),
    });
  } catch (err) {
    await releaseTimeslot(deps, holder, hold.hold_hash).catch(() => undefined);
    throw err;
  }
}
