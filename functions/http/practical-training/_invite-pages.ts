import * as v from 'valibot';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';
import type { PracticalBookingView } from '../../core/practical-training/bookings.js';
import { inviteEvents, inviteGone, inviteSeatHold } from '../../core/practical-training/invites-page.js';
import { inviteOfToken, type InviteItem } from '../../core/practical-training/invites.js';
import type { SeatHold } from '../../core/practical-training/seats.js';
import type { TrainingEventView } from '../../core/practical-training/views.js';
import { email, name, nmcNumber, phone } from '../../api/schemas/fields.js';
import { candidateFields, escapeHtml, layout } from '../../middleware/html.js';

/** The candidate's pages of a booking invite: choose an event, hold a seat, enter details, book; and the payment page. */

export const InviteBookingForm = v.object({
  first_name: name(),
  last_name: name(),
  email,
  phone,
  job_role: name(),
  nmc_number: v.optional(v.union([v.literal(''), nmcNumber]), ''),
});

export interface InvitePageModel {
  invite: InviteItem;
  agency: string;
  events: TrainingEventView[];
  hold?: SeatHold;
  actions: { hold: string; release: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

export async function invitePageModel(deps: Deps, invite: InviteItem, actions: InvitePageModel['actions']): Promise<InvitePageModel> {
  const [client, events, hold] = await Promise.all([getClient(deps, invite.client_id), inviteEvents(deps, invite), inviteSeatHold(deps, invite)]);
  return { invite, agency: client?.name ?? 'Your agency', events, hold, actions, values: { first_name: invite.candidate.first_name, last_name: invite.candidate.last_name, email: invite.candidate.email }, errors: {} };
}

/** The page a used or expired invite answers, with 410. */
export function gonePage(state: 'used' | 'expired'): { status: number; html: string } {
  const html =
    state === 'used'
      ? layout('This invite has been used', '<h1>This invite has been used</h1><p>A place has already been booked with this link. Each invite books once; ask your agency if you need another.</p>')
      : layout('This invite has expired', '<h1>This invite has expired</h1><p>The link is no longer valid. Please ask your agency for a new invite.</p>');
  return { status: 410, html };
}

/** The invite behind the token, or the 410 page when it can no longer be used. */
export async function liveInvite(deps: Deps, token: string): Promise<InviteItem | { status: number; html: string }> {
  const invite = await inviteOfToken(deps, token);
  const state = inviteGone(invite, deps.clock());
  return state ? gonePage(state) : invite;
}

/** A refusal that means the invite was used (or expired) meanwhile: the 410 page; anything else, undefined. */
export async function goneMeanwhile(deps: Deps, token: string, err: unknown): Promise<{ status: number; html: string } | undefined> {
  if (!(err instanceof DomainError)) return undefined;
  const state = inviteGone(await inviteOfToken(deps, token), deps.clock());
  return state ? gonePage(state) : undefined;
}

const when = (e: { start_at: string }, tz: string) => readableTime(e.start_at, tz);

export function invitePage(m: InvitePageModel, timeZone: string): string {
  const page = (title: string, html: string) => layout(title, html, m.agency);
  const i = m.invite;
  const course = escapeHtml(i.course.name);
  const pays = i.pay_option === 'candidate_pays';
  const notice = m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : '';
  if (m.hold) {
    const e = m.errors;
    const val = m.values;
    const held = m.hold;
    return page(`Book ${i.course.name}`, `<h1>Book ${course}</h1>
${notice}
<p>A seat is held for you on <strong>${escapeHtml(when(held, timeZone))}</strong> at ${escapeHtml(held.location.name)}, ${escapeHtml(held.location.town)}, until ${escapeHtml(readableTime(held.expires_at, timeZone))}.</p>
<form method="post" action="${escapeHtml(m.actions.release)}"><button type="submit">Release this seat and choose another date</button></form>
<form method="post" action="${escapeHtml(m.actions.book)}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
${candidateFields(val, e, 'optional')}
<button type="submit">${pays ? 'Book and go to payment' : 'Book this place'}</button>
</form>`);
  }
  const events = m.events
    .map(
      (ev) => `<li><form method="post" action="${escapeHtml(m.actions.hold)}"><input type="hidden" name="training_event_id" value="${ev.id}">
${escapeHtml(when(ev, timeZone))}, ${escapeHtml(ev.location.name)}, ${escapeHtml(ev.location.town)} (${ev.seats_available} seat${ev.seats_available === 1 ? '' : 's'} left)
<button type="submit">Choose this date</button></form></li>`,
    )
    .join('\n');
  return page(`Book ${i.course.name}`, `<h1>Book ${course}</h1>
<p>${escapeHtml(m.agency)} invites you to book a place${pays ? '; you pay for it when you book' : ''}.</p>
${i.message ? `<blockquote>${escapeHtml(i.message)}</blockquote>` : ''}
${notice}
${m.events.length ? `<h2>Choose a date</h2><p>Choosing a date holds a seat for you for 30 minutes.</p><ul>${events}</ul>` : '<p>There are no dates open for booking just now. Please try again later, or ask your agency.</p>'}`);
}

export function bookedPage(b: PracticalBookingView, timeZone: string, agency: string): string {
  return layout('Booked', `<h1>You are booked</h1>
<p>${escapeHtml(b.course.name)} on ${escapeHtml(readableTime(b.start_date, timeZone))}.</p>
<p>We have sent the details to ${escapeHtml(b.candidate.email)}.</p>`, agency);
}
