import * as v from 'valibot';
import { DeliveryAddress } from '../../api/schemas/virtual-life-support.js';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import type { InviteItem } from '../../core/practical-training/invites.js';
import type { VlsBookingView } from '../../core/virtual-life-support/bookings.js';
import type { VlsCourse } from '../../core/virtual-life-support/catalogue.js';
import { vlsInviteOffer } from '../../core/virtual-life-support/invites.js';
import { candidateFields, escapeHtml, field, layout } from '../../middleware/html.js';
import { InviteBookingForm } from '../shared/_invite-pages.js';

/**
 * A life-support request's invite page (no JavaScript): the course's
 * timeslots with seats, the candidate's details and, when the course posts a
 * manikin, where to post it; one post books.
 */

export const VlsInviteForm = v.object({
  ...InviteBookingForm.entries,
  slot: v.pipe(v.string('Choose a time'), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Choose a time')),
});

/** The posted address, checked as the API checks it (an empty second line is none). */
export const parseAddress = (form: Record<string, string>) => v.safeParse(DeliveryAddress, { line1: form.line1, line2: form.line2 || null, town: form.town, postcode: form.postcode });

export interface VlsInvitePageModel {
  invite: InviteItem;
  agency: string;
  course: VlsCourse | undefined;
  slots: { date: string; time: string; seats_available: number }[];
  action: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

export async function vlsInvitePageModel(deps: Deps, invite: InviteItem, action: string): Promise<VlsInvitePageModel> {
  const [client, offer] = await Promise.all([getClient(deps, invite.client_id), vlsInviteOffer(deps, invite)]);
  return { invite, agency: client?.name ?? 'Your agency', ...offer, action, values: { first_name: invite.candidate.first_name, last_name: invite.candidate.last_name, email: invite.candidate.email }, errors: {} };
}

export function vlsInvitePage(m: VlsInvitePageModel): string {
  const i = m.invite;
  const course = escapeHtml(i.course.name);
  const pays = i.pay_option === 'candidate_pays';
  const e = m.errors;
  const val = m.values;
  const notice = m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : '';
  const slots = m.slots
    .map((s) => {
      const value = `${s.date}T${s.time}`;
      return `<li><label><input type="radio" name="slot" value="${escapeHtml(value)}"${val.slot === value ? ' checked' : ''} required> ${escapeHtml(s.date)} at ${escapeHtml(s.time)} (${s.seats_available} seat${s.seats_available === 1 ? '' : 's'} left)</label></li>`;
    })
    .join('\n');
  const address = m.course?.equipment_required
    ? `<h2>Where to post the manikin</h2>
<p>A feedback manikin is posted to you before the session; please post it back within 7 days after it.</p>
${field('line1', 'Address', val.line1, e.line1, 'text', 'autocomplete="address-line1" required')}
${field('line2', 'Address, second line (optional)', val.line2, e.line2, 'text', 'autocomplete="address-line2"')}
${field('town', 'Town', val.town, e.town, 'text', 'autocomplete="address-level2" required')}
${field('postcode', 'Postcode', val.postcode, e.postcode, 'text', 'autocomplete="postal-code" required')}`
    : '';
  const body = m.slots.length
    ? `<form method="post" action="${escapeHtml(m.action)}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<h2>Choose a time</h2>
${e.slot ? `<p class="error" id="slot-error">${escapeHtml(e.slot)}</p>` : ''}
<ul>${slots}</ul>
${candidateFields(val, e, 'optional')}
${address}
<button type="submit">${pays ? 'Book and go to payment' : 'Book this session'}</button>
</form>`
    : '<p>There are no sessions open for booking just now. Please try again later, or ask your agency.</p>';
  return layout(`Book ${i.course.name}`, `<h1>Book ${course}</h1>
<p>${escapeHtml(m.agency)} invites you to book a live virtual session${pays ? '; you pay for it when you book' : ''}.</p>
${notice}
${body}`, m.agency);
}

export function vlsBookedPage(b: VlsBookingView, agency: string): string {
  return layout('Booked', `<h1>You are booked</h1>
<p>${escapeHtml(b.course.name)} on ${escapeHtml(b.timeslot.date)} at ${escapeHtml(b.timeslot.time)}, live by video.</p>
<p>We have sent the details to ${escapeHtml(b.candidate.email)}.</p>`, agency);
}
