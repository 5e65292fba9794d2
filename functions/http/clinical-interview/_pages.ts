import type { InterviewType } from '../../core/clinical-interview/catalog.js';
import { formatMoney } from '../../core/commerce/charges.js';
import { readableDate } from '../../core/platform/time.js';
import { candidateFields, escapeHtml, layout } from '../../middleware/html.js';

/** The candidate-facing pages of the clinical interview family. */

export interface BookingPageModel {
  agency: string;
  action: string;
  types: InterviewType[];
  type?: InterviewType;
  slots: { date: string; time: string }[];
  /** The day whose times are shown (`?date=`); the first with free times when absent. */
  day?: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** Why nothing was booked, when it is not a field's fault. */
  notice?: string;
}

export function bookingPage(m: BookingPageModel): string {
  const page = (title: string, html: string) => layout(title, html, m.agency);
  const typeLinks = m.types
    .map((t) => `<li><a href="?interview_type_id=${t.id}">${escapeHtml(t.name)}</a> (${t.durationMinutes} minutes, ${formatMoney(t.price)})</li>`)
    .join('\n');
  if (!m.type) {
    return page(
      `Book a clinical interview with ${m.agency}`,
      `<h1>Book a clinical interview</h1>
<p>${escapeHtml(m.agency)} invites you to book a clinical interview. Choose the interview:</p>
<ul>${typeLinks}</ul>`,
    );
  }
  const byDate = new Map<string, string[]>();
  for (const s of m.slots) byDate.set(s.date, [...(byDate.get(s.date) ?? []), s.time]);
  // A day first (links, so no script is needed), then its times: the day asked for, the day of the time chosen, or the first.
  const day = [m.day, m.values.slot?.slice(0, 10)].find((d) => d && byDate.has(d)) ?? [...byDate.keys()][0];
  const days = [...byDate.keys()]
    .map(
      (date) =>
        `<li><a href="?interview_type_id=${m.type!.id}&amp;date=${date}"${date === day ? ' aria-current="date"' : ''}>${escapeHtml(readableDate(date, { year: false }))}</a></li>`,
    )
    .join('\n');
  const chosen = m.values.slot;
  const times = (byDate.get(day ?? '') ?? [])
    .map((time) => {
      const value = `${day}T${time}`;
      const id = `slot-${day}-${time.replace(':', '')}`;
      return `<span class="slot"><input type="radio" name="slot" id="${id}" value="${value}" ${chosen === value ? 'checked' : ''} required> <label for="${id}">${time}</label></span>`;
    })
    .join('\n');
  const slotGroups = `<h2>Choose a day</h2>
<ul class="days">${days}</ul>
<fieldset><legend>Times on ${escapeHtml(day ? readableDate(day) : '')}</legend>
${m.errors.slot ? `<p class="error" id="slot-error">${escapeHtml(m.errors.slot)}</p>` : ''}
${times}
</fieldset>`;
  const e = m.errors;
  const v = m.values;
  return page(
    `Book a ${m.type.name}`,
    `<h1>Book a ${escapeHtml(m.type.name)}</h1>
<p>With ${escapeHtml(m.agency)}. ${m.type.durationMinutes} minutes, by video. You pay ${formatMoney(m.type.price)} to confirm it.</p>
${m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : Object.keys(e).length ? `<p class="error" role="alert">Please correct the highlighted answers.</p>` : ''}
${
  m.slots.length === 0
    ? '<p>There are no free times in the next two weeks. Please try again later.</p>'
    : `<form method="post" action="${escapeHtml(m.action)}">
<input type="hidden" name="interview_type_id" value="${m.type.id}">
${slotGroups}
${candidateFields(v, e, 'required')}
<button type="submit">Book and go to payment</button>
</form>`
}
<p><a href="?">Choose another interview</a></p>`,
  );
}
