import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { DeliveryAddress } from '../../api/schemas/virtual-life-support.js';
import type { Deps } from '../../core/platform/deps.js';
import { readableDate, readableTime, readableWallTime } from '../../core/platform/time.js';
import type { InviteItem } from '../../core/practical-training/invites.js';
import type { VlsBookingView } from '../../core/virtual-life-support/bookings.js';
import type { VlsCourse } from '../../core/virtual-life-support/catalogue.js';
import { vlsInviteCourse, vlsInviteHold, vlsInviteOffer, vlsSlotsBusyForInvites } from '../../core/virtual-life-support/invites.js';
import type { SlotHold } from '../../core/virtual-life-support/timeslots.js';
import { alertNotice, candidateFields, escapeHtml, field, layout } from '../../middleware/html.js';
import { linkPage } from '../shared/_booking-link-page.js';
import { inviteAgency, inviteChoices, inviteFormValues } from '../shared/_invite-pages.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

/**
 * A life-support request's invite page (no JavaScript): the course's
 * timeslots with seats, each a form that holds a seat for 30 minutes; with a
 * seat held, the candidate's details and, when the course posts a manikin,
 * where to post it; that post books the held seat.
 */

/** A timeslot as the pages post it: `<date>T<time>`. */
export const SlotField = v.pipe(v.string('Choose a time'), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Choose a time'));
export const splitSlot = (slot: string) => {
  const [date, time] = slot.split('T') as [string, string];
  return { date, time };
};

/** The posted address, checked as the API checks it (an empty second line is none). */
export const parseAddress = (form: Record<string, string>) =>
  v.safeParse(DeliveryAddress, { line1: form.line1, line2: form.line2 || null, town: form.town, postcode: form.postcode });

/** Where the manikin goes, asked only for a course that posts one. */
export function addressFields(course: VlsCourse | undefined, val: Record<string, string>, e: Record<string, string>): string {
  if (!course?.equipment_required) return '';
  return `<h2>Where to post the manikin</h2>
<p>A feedback manikin is posted to you before the session; please post it back within 7 days after it.</p>
${field('line1', 'Address', val.line1, e.line1, 'text', 'autocomplete="address-line1" required')}
${field('line2', 'Address, second line (optional)', val.line2, e.line2, 'text', 'autocomplete="address-line2"')}
${field('town', 'Town', val.town, e.town, 'text', 'autocomplete="address-level2" required')}
${field('postcode', 'Postcode', val.postcode, e.postcode, 'text', 'autocomplete="postal-code" required')}`;
}

const seatsLeft = (n: number) => `${n} seat${n === 1 ? '' : 's'} left`;

/** The invite page's booking form: the seat the invite holds, the candidate's details and, for a course that posts a manikin, where to. */
export interface VlsInviteFormModel {
  invite: InviteItem;
  agency: string;
  course: VlsCourse | undefined;
  hold: SlotHold;
  actions: { hold: string; release: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

/** The whole invite page: the booking form while a seat is held, else the timeslots to choose from. */
export interface VlsInvitePageModel extends Omit<VlsInviteFormModel, 'hold'> {
  slots: { date: string; time: string; seats_available: number }[];
  /** Timeslots (`<date>T<time>`) of which the agency's invites hold as many seats as they may at once: offered as busy. */
  busy: Set<string>;
  hold?: SlotHold;
}

/** What the invite page says when the booking form sent the candidate back to it (`?notice=seat-lost`). */
export const VLS_SEAT_LOST = 'Your seat was no longer held. Please choose a time again.';

/** Where the invite page's forms post: every page that shows it links the same. */
export const vlsInviteActions = (baseUrl: string, token: string): VlsInvitePageModel['actions'] => ({
  hold: linkTo(baseUrl, pages.holdInviteSeat, { token }),
  release: linkTo(baseUrl, pages.releaseInviteSeat, { token }),
  book: linkTo(baseUrl, pages.submitInvitePage, { token }),
});

export async function vlsInvitePageModel(deps: Deps, invite: InviteItem, actions: VlsInvitePageModel['actions']): Promise<VlsInvitePageModel> {
  const [agency, offer, hold] = await Promise.all([inviteAgency(deps, invite), vlsInviteOffer(deps, invite), vlsInviteHold(deps, invite)]);
  const busy = hold ? new Set<string>() : await vlsSlotsBusyForInvites(deps, invite, offer.slots);
  return { invite, agency, ...offer, busy, hold, actions, values: inviteFormValues(invite), errors: {} };
}

/** The booking form's model, while the invite holds a seat; undefined when it holds none. */
export async function vlsInviteFormModel(deps: Deps, invite: InviteItem, actions: VlsInviteFormModel['actions']): Promise<VlsInviteFormModel | undefined> {
  const [agency, course, hold] = await Promise.all([inviteAgency(deps, invite), vlsInviteCourse(deps, invite), vlsInviteHold(deps, invite)]);
  return hold && { invite, agency, course, hold, actions, values: inviteFormValues(invite), errors: {} };
}

const pageOf = (m: { invite: InviteItem; agency: string }, html: string) =>
  layout(`Book ${m.invite.course.name}`, `<h1>Book ${escapeHtml(m.invite.course.name)}</h1>\n${html}`, m.agency);

/** The booking form: the seat held and until when, the candidate's details and, for a course that posts a manikin, the address. */
export function vlsInviteFormPage(m: VlsInviteFormModel, timeZone: string): string {
  const e = m.errors;
  const val = m.values;
  return pageOf(
    m,
    `${alertNotice(m.notice)}
<p>A seat is held for you on <strong>${escapeHtml(readableWallTime(m.hold.date, m.hold.time))}</strong>, live by video, until ${escapeHtml(readableTime(m.hold.expires_at, timeZone))}.</p>
<form method="post" action="${escapeHtml(m.actions.release)}"><button type="submit">Release this seat and choose another time</button></form>
<form method="post" action="${escapeHtml(m.actions.book)}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
${candidateFields(val, e, 'optional')}
${addressFields(m.course, val, e)}
<button type="submit">${m.invite.pay_option === 'candidate_pays' ? 'Book and go to payment' : 'Book this session'}</button>
</form>`,
  );
}

export function vlsInvitePage(m: VlsInvitePageModel, timeZone: string): string {
  if (m.hold) return vlsInviteFormPage({ ...m, hold: m.hold }, timeZone);
  const pays = m.invite.pay_option === 'candidate_pays';
  const slots = inviteChoices(
    m.actions.hold,
    'slot',
    'Choose this time',
    m.slots.map((s) => ({
      value: `${s.date}T${s.time}`,
      when: readableWallTime(s.date, s.time),
      where: 'Live by video',
      seats: s.seats_available,
      busy: m.busy.has(`${s.date}T${s.time}`),
    })),
  );
  return pageOf(
    m,
    `<p>${escapeHtml(m.agency)} invites you to book a live virtual session${pays ? '; you pay for it when you book' : ''}.</p>
${alertNotice(m.notice)}
${m.slots.length ? `<h2>Choose a time</h2><p>Choosing a time holds a seat for you for ${HOLD_MINUTES} minutes.</p>\n${slots}` : '<p>There are no sessions open for booking just now. Please try again later, or ask your agency.</p>'}`,
  );
}

export function vlsBookedPage(b: VlsBookingView, agency: string): string {
  return layout(
    'Booked',
    `<h1>You are booked</h1>
<p>${escapeHtml(b.course.name)} on ${escapeHtml(readableWallTime(b.timeslot.date, b.timeslot.time))}, live by video.</p>
<p>We have sent the details to ${escapeHtml(b.candidate.email)}.</p>`,
    agency,
  );
}

/** The agency's booking link page: a course, then one of its times, the candidate's details and the address; paid on the next page. */
export interface VlsLinkPageModel {
  agency: string;
  courses: VlsCourse[];
  course?: VlsCourse;
  slots: { date: string; time: string; seats_available: number }[];
  actions: { choose: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

export const vlsLinkActions = (baseUrl: string, token: string): VlsLinkPageModel['actions'] => ({
  choose: linkTo(baseUrl, pages.showBookingPage, { token }),
  book: linkTo(baseUrl, pages.submitBookingPage, { token }),
});

export function vlsLinkPage(m: VlsLinkPageModel): string {
  const choices = m.slots.map((s) => ({ value: `${s.date}T${s.time}`, day: readableDate(s.date), label: `${s.time} (${seatsLeft(s.seats_available)})` }));
  return linkPage({ ...m, what: 'a virtual life-support session', unit: 'time', field: 'slot', choices, extra: addressFields(m.course, m.values, m.errors) });
}
