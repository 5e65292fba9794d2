import type { PaymentRequestStatus } from '../../core/commerce/payment-requests.js';
import type { BookingView } from '../../core/bookings/bookings.js';
import type { InterviewType } from '../../core/clinical-interview/catalog.js';
import { candidateFields, escapeHtml, layout } from '../../middleware/html.js';

/** The candidate-facing pages of the clinical interview family. */

const money = (amount: number) => `£${(amount / 100).toFixed(2)}`;

export interface BookingPageModel {
  agency: string;
  action: string;
  types: InterviewType[];
  type?: InterviewType;
  slots: { date: string; time: string }[];
  values: Record<string, string>;
  errors: Record<string, string>;
  /** Why nothing was booked, when it is not a field's fault. */
  notice?: string;
}

export function bookingPage(m: BookingPageModel): string {
  const typeLinks = m.types
    .map((t) => `<li><a href="?interview_type_id=${t.id}">${escapeHtml(t.name)}</a> (${t.durationMinutes} minutes, ${money(t.price.amount)})</li>`)
    .join('\n');
  if (!m.type) {
    return layout(`Book a clinical interview with ${m.agency}`, `<h1>Book a clinical interview</h1>
<p>${escapeHtml(m.agency)} invites you to book a clinical interview. Choose the interview:</p>
<ul>${typeLinks}</ul>`);
  }
  const byDate = new Map<string, string[]>();
  for (const s of m.slots) byDate.set(s.date, [...(byDate.get(s.date) ?? []), s.time]);
  const chosen = m.values.slot;
  const slotGroups = [...byDate.entries()]
    .map(
      ([date, times]) => `<fieldset><legend>${escapeHtml(new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }))}</legend>
${times
  .map((time) => {
    const value = `${date}T${time}`;
    const id = `slot-${date}-${time.replace(':', '')}`;
    return `<span class="slot"><input type="radio" name="slot" id="${id}" value="${value}" ${chosen === value ? 'checked' : ''} required> <label for="${id}">${time}</label></span>`;
  })
  .join('\n')}
</fieldset>`,
    )
    .join('\n');
  const e = m.errors;
  const v = m.values;
  return layout(`Book a ${m.type.name}`, `<h1>Book a ${escapeHtml(m.type.name)}</h1>
<p>With ${escapeHtml(m.agency)}. ${m.type.durationMinutes} minutes, by video. You pay ${money(m.type.price.amount)} to confirm it.</p>
${m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : Object.keys(e).length ? `<p class="error" role="alert">Please correct the highlighted answers.</p>` : ''}
${m.slots.length === 0 ? '<p>There are no free times in the next two weeks. Please try again later.</p>' : `<form method="post" action="${escapeHtml(m.action)}">
<input type="hidden" name="interview_type_id" value="${m.type.id}">
<h2>Choose a time</h2>
${e.slot ? `<p class="error">${escapeHtml(e.slot)}</p>` : ''}
${slotGroups}
${candidateFields(v, e, 'required')}
<button type="submit">Book and go to payment</button>
</form>`}
<p><a href="?">Choose another interview</a></p>`);
}

export function paymentPage(m: { booking: BookingView; amount: number; status: PaymentRequestStatus; pastDue?: boolean; payBy?: string; action: string; providerReady: boolean }): string {
  const b = m.booking;
  const summary = `<dl>
<dt>Interview</dt><dd>${escapeHtml(b.interview_type.name)}</dd>
<dt>When</dt><dd>${escapeHtml(b.start_date)}</dd>
<dt>Candidate</dt><dd>${escapeHtml(b.candidate.name)}</dd>
<dt>Amount</dt><dd>${money(m.amount)}</dd>
</dl>`;
  if (m.status === 'paid') {
    return layout('Payment received', `<h1>Payment received</h1>
<p>Your interview is confirmed.</p>${summary}
<p>Join the video meeting at the time above: <a href="${escapeHtml(b.video_meeting.join_link)}">${escapeHtml(b.video_meeting.join_link)}</a> (password ${escapeHtml(b.video_meeting.password)}).</p>`);
  }
  if (m.status === 'refunded') {
    return layout('Booking cancelled', `<h1>This booking was cancelled</h1><p>Your payment is being refunded.</p>${summary}`);
  }
  if (m.pastDue) {
    return layout('Payment closed', `<h1>The time to pay has passed</h1><p>This booking was not paid for by ${escapeHtml(m.payBy ?? 'its deadline')}, so it is cancelled and cannot be paid for now.</p>${summary}`);
  }
  if (m.status === 'cancelled') {
    return layout('Booking cancelled', `<h1>This booking was cancelled</h1><p>There is nothing to pay.</p>${summary}`);
  }
  return layout('Pay for your interview', `<h1>Pay for your interview</h1>${summary}
${m.payBy ? `<p>Please pay by ${escapeHtml(m.payBy)}; an unpaid booking is cancelled then.</p>` : ''}
${m.providerReady ? `<form method="post" action="${escapeHtml(m.action)}"><button type="submit">Pay ${money(m.amount)}</button></form>` : '<p>Online payment is not available at the moment. Please try again later.</p>'}`);
}
