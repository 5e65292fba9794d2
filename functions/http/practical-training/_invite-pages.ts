import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import type { Deps } from '../../core/platform/deps.js';
import { readableTime } from '../../core/platform/time.js';
import type { PracticalBookingView } from '../../core/practical-training/bookings.js';
import { eventsBusyForInvites, inviteEvents, inviteSeatHold } from '../../core/practical-training/invites-page.js';
import type { InviteItem } from '../../core/practical-training/invites.js';
import type { SeatHold } from '../../core/practical-training/seats.js';
import type { TrainingEventView } from '../../core/practical-training/views.js';
import { alertNotice, candidateFields, escapeHtml, layout } from '../../middleware/html.js';

import { inviteAgency, inviteChoices, inviteFormValues } from '../shared/_invite-pages.js';
import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

export { BUSY, goneMeanwhile, InviteBookingForm, liveInvite } from '../shared/_invite-pages.js';

/** The candidate's pages of a booking invite: choose an event, hold a seat, enter details, book; and the payment page. */

/** The invite page's booking form: the seat the invite holds, and the candidate's details. */
export interface InviteFormModel {
  invite: InviteItem;
  agency: string;
  hold: SeatHold;
  actions: { hold: string; release: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

/** The whole invite page: the booking form while a seat is held, else the events to choose from. */
export interface InvitePageModel extends Omit<InviteFormModel, 'hold'> {
  events: TrainingEventView[];
  /** Events of which the agency's invites hold as many seats as they may at once: offered as busy. */
  busy: Set<number>;
  hold?: SeatHold;
}

/** What the invite page says when the booking form sent the candidate back to it (`?notice=seat-lost`). */
export const SEAT_LOST = 'Your seat was no longer held. Please choose a date again.';

/** Where the invite page's forms post: every page that shows it (the page itself, and a hold or booking that failed) links the same. */
export const inviteActions = (baseUrl: string, token: string): InvitePageModel['actions'] => ({
  hold: linkTo(baseUrl, pages.holdInviteSeat, { token }),
  release: linkTo(baseUrl, pages.releaseInviteSeat, { token }),
  book: linkTo(baseUrl, pages.submitInvitePage, { token }),
});

export async function invitePageModel(deps: Deps, invite: InviteItem, actions: InvitePageModel['actions']): Promise<InvitePageModel> {
  const [agency, events, hold] = await Promise.all([inviteAgency(deps, invite), inviteEvents(deps, invite), inviteSeatHold(deps, invite)]);
  const busy = hold
    ? new Set<number>()
    : await eventsBusyForInvites(
        deps,
        invite,
        events.map((e) => e.id),
      );
  return { invite, agency, events, busy, hold, actions, values: inviteFormValues(invite), errors: {} };
}

/** The booking form's model, while the invite holds a seat; undefined when it holds none. */
export async function inviteFormModel(deps: Deps, invite: InviteItem, actions: InviteFormModel['actions']): Promise<InviteFormModel | undefined> {
  const [agency, hold] = await Promise.all([inviteAgency(deps, invite), inviteSeatHold(deps, invite)]);
  return hold && { invite, agency, hold, actions, values: inviteFormValues(invite), errors: {} };
}

const when = (e: { start_at: string }, tz: string) => readableTime(e.start_at, tz);

const titleOf = (i: InviteItem) => `Book ${i.course.name}`;

/** The booking form: the seat held and until when, the candidate's details. */
export function inviteFormPage(m: InviteFormModel, timeZone: string): string {
  const i = m.invite;
  const e = m.errors;
  const held = m.hold;
  return layout(
    titleOf(i),
    `<h1>Book ${escapeHtml(i.course.name)}</h1>
${alertNotice(m.notice)}
<p>A seat is held for you on <strong>${escapeHtml(when(held, timeZone))}</strong> at ${escapeHtml(held.location.name)}, ${escapeHtml(held.location.town)}, until ${escapeHtml(readableTime(held.expires_at, timeZone))}.</p>
<form method="post" action="${escapeHtml(m.actions.release)}"><button type="submit">Release this seat and choose another date</button></form>
<form method="post" action="${escapeHtml(m.actions.book)}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
${candidateFields(m.values, e, 'optional')}
<button type="submit">${i.pay_option === 'candidate_pays' ? 'Book and go to payment' : 'Book this place'}</button>
</form>`,
    m.agency,
  );
}

export function invitePage(m: InvitePageModel, timeZone: string): string {
  if (m.hold) return inviteFormPage({ ...m, hold: m.hold }, timeZone);
  const i = m.invite;
  const pays = i.pay_option === 'candidate_pays';
  const events = inviteChoices(
    m.actions.hold,
    'training_event_id',
    'Choose this date',
    m.events.map((ev) => ({
      value: String(ev.id),
      when: when(ev, timeZone),
      where: `${ev.location.name}, ${ev.location.town}`,
      seats: ev.seats_available,
      busy: m.busy.has(ev.id),
    })),
  );
  return layout(
    titleOf(i),
    `<h1>Book ${escapeHtml(i.course.name)}</h1>
<p>${escapeHtml(m.agency)} invites you to book a place${pays ? '; you pay for it when you book' : ''}.</p>
${i.message ? `<blockquote>${escapeHtml(i.message)}</blockquote>` : ''}
${alertNotice(m.notice)}
${m.events.length ? `<h2>Choose a date</h2><p>Choosing a date holds a seat for you for ${HOLD_MINUTES} minutes.</p>\n${events}` : '<p>There are no dates open for booking just now. Please try again later, or ask your agency.</p>'}`,
    m.agency,
  );
}

export function bookedPage(b: PracticalBookingView, timeZone: string, agency: string): string {
  return layout(
    'Booked',
    `<h1>You are booked</h1>
<p>${escapeHtml(b.course.name)} on ${escapeHtml(readableTime(b.start_date, timeZone))}.</p>
<p>We have sent the details to ${escapeHtml(b.candidate.email)}.</p>`,
    agency,
  );
}
