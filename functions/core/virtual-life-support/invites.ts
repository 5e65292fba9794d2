import type { ClientAccount } from '../access/clients.js';
import type { BookingLinks } from '../bookings/commit.js';
import { addDays, wallClock } from '../platform/time.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import type { PayOption } from '../platform/booking-vocabulary.js';
import { agencyContactOf, busyForInvites, holderOf, inviteSeatHold, inviteUse, usableInvite } from '../practical-training/invites-page.js';
import { inviteOf, refuseInvoice, type InviteItem, type InviteOptions, type InvitePlan } from '../practical-training/invites.js';
import { createVlsBooking, type DeliveryAddress, type VlsBookingView } from './bookings.js';
import { loadCourses, VLS_FAMILY, type VlsCourse } from './catalogue.js';
import { holdTimeslot, listTimeslots, MAX_RANGE_DAYS, releaseTimeslot, slotScope, type SlotHold, type SlotHoldView } from './timeslots.js';

/**
 * Life-support request invites (decision 11):
 * internal to this family, which has no invite operations. A portal v2
 * life_support request writes one; the family e-mails its link; the
 * candidate's page lists the course's timeslots, holds a seat of one while
 * the candidate fills in the form, and books it (with a delivery address
 * when the course posts a manikin). The invite is the
 * practical training family's kind of record, kept under this family's keys.
 */

export interface NewVlsInvite {
  candidate: { first_name: string; last_name: string; email: string };
  course_id: number;
  pay_option: PayOption;
}

/** The invite of an active course, checked (invoicing) and ready for the request's transaction. */
export async function planVlsInvite(
  deps: Deps,
  client: ClientAccount,
  input: NewVlsInvite,
  link: (token: string) => string,
  options: InviteOptions,
): Promise<InvitePlan> {
  refuseInvoice(client, input.pay_option);
  const course = (await loadCourses(deps)).find((c) => c.id === input.course_id && c.active);
  if (!course) throw fieldRefusal('/course_id', `No active virtual life-support course ${input.course_id}`);
  return inviteOf(
    deps,
    VLS_FAMILY,
    client,
    { candidate: input.candidate, pay_option: input.pay_option, course: { id: course.id, name: course.name, code: course.code } },
    { invite: link },
    options,
  );
}

/** What the candidate's page offers: the course, and its timeslots with seats over the next weeks (never past the invite). */
export async function vlsInviteOffer(
  deps: Deps,
  invite: InviteItem,
): Promise<{ course: VlsCourse | undefined; slots: Awaited<ReturnType<typeof listTimeslots>> }> {
  const course = await vlsInviteCourse(deps, invite);
  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const slots = course ? await listTimeslots(deps, { courseId: course.id, from: today, to: addDays(today, MAX_RANGE_DAYS - 1) }) : [];
  return { course, slots };
}

/** The invite's course as the catalogue has it now (undefined once it left the catalogue). */
export const vlsInviteCourse = async (deps: Deps, invite: InviteItem): Promise<VlsCourse | undefined> =>
  (await loadCourses(deps)).find((c) => c.id === invite.course.id);

/** The timeslot the invite holds a seat of now, if any (its hold carries the slot). */
export async function vlsInviteHold(deps: Deps, invite: InviteItem): Promise<SlotHold | undefined> {
  return (await inviteSeatHold(deps, invite)) as unknown as SlotHold | undefined;
}

/** The offered timeslots of which the agency's invites hold as many seats as they may at once: the page shows them as busy. */
export async function vlsSlotsBusyForInvites(deps: Deps, invite: InviteItem, slots: { date: string; time: string }[]): Promise<Set<string>> {
  const scopeOf = (s: { date: string; time: string }) => slotScope({ courseId: invite.course.id, date: s.date, time: s.time });
  const busy = await busyForInvites(deps, invite, slots.map(scopeOf));
  return new Set(slots.filter((s) => busy.has(scopeOf(s))).map((s) => `${s.date}T${s.time}`));
}

/**
 * POST /invite/{t}/hold of this family: a seat of the chosen timeslot, held
 * by the invite for 30 minutes while the candidate fills in the form (never
 * blocking the agency's own hold); it takes one of the client's invite
 * places of the timeslot in the hold's transaction (at most
 * INVITE_SEATS_PER_SESSION at once).
 */
export async function holdVlsSlotForInvite(deps: Deps, token: string, slot: { date: string; time: string }): Promise<SlotHoldView> {
  const invite = await usableInvite(deps, token, VLS_FAMILY);
  if (await inviteSeatHold(deps, invite)) throw new DomainError('hold-conflict', 'A seat is held for this invite already');
  return holdTimeslot(deps, holderOf(invite), { courseId: invite.course.id, date: slot.date, time: slot.time });
}

/** POST /invite/{t}/release of this family: gives the invite's seat back, if it holds one. */
export async function releaseVlsInviteSlot(deps: Deps, token: string): Promise<void> {
  const invite = await usableInvite(deps, token, VLS_FAMILY);
  const hold = await inviteSeatHold(deps, invite);
  if (hold) await releaseTimeslot(deps, holderOf(invite), hold.hold_hash);
}

export interface VlsInviteBooking {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_role: string;
  nmc_number: string | null;
  delivery_address?: Omit<DeliveryAddress, 'line2'> & { line2?: string | null };
}

/**
 * POST /invite/{t} of this family: books the seat the invite holds with the
 * agency's `pay_option`; the booking's transaction uses the hold and the
 * invite and books the request's item. A refusal (short of funds) changes
 * nothing: the invite and its hold stay usable.
 */
export async function bookVlsWithInvite(deps: Deps, token: string, input: VlsInviteBooking, links: BookingLinks): Promise<VlsBookingView> {
  const invite = await usableInvite(deps, token, VLS_FAMILY);
  const hold = await inviteSeatHold(deps, invite);
  if (!hold) throw new DomainError('hold-not-found', 'Choose a time first: no seat is held for this invite');
  return createVlsBooking(deps, invite.client_id, { ...input, ...agencyContactOf(invite), hold_hash: hold.hold_hash, pay_option: invite.pay_option }, links, {
    holder: holderOf(invite),
    bookedBy: 'Candidate',
    bookingInviteId: invite.id,
    source: invite.source,
    extra: inviteUse(deps, invite, token),
  });
}
