import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';
import { clientOfLink, linkChoices } from '../../core/practical-training/booking-link.js';
import type { Course } from '../../core/practical-training/catalogue.js';
import type { TrainingEventView } from '../../core/practical-training/views.js';
import { idFromString } from '../../api/schemas/fields.js';
import { candidateFields, escapeHtml, layout } from '../../middleware/html.js';
import { InviteBookingForm } from './_invite-pages.js';

/** The agency's booking link page: a course, then one of its dates and the candidate's details; paid on the next page. */

export const BookingLinkForm = v.object({
  training_event_id: v.pipe(v.string('Choose a date'), v.nonEmpty('Choose a date'), idFromString),
  ...InviteBookingForm.entries,
});

export interface BookingLinkModel {
  agency: string;
  courses: Course[];
  course?: Course;
  events: TrainingEventView[];
  /** Where the course choice (GET) and the booking (POST) go. */
  actions: { choose: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
}

/** Where the booking link page's forms go: the page itself and a booking that failed link the same. */
export const linkActions = (baseUrl: string, token: string): BookingLinkModel['actions'] => ({ choose: linkTo(baseUrl, pages.showBookingPage, { token }), book: linkTo(baseUrl, pages.submitBookingPage, { token }) });

export async function bookingLinkModel(deps: Deps, token: string, courseId: string | undefined, actions: BookingLinkModel['actions']): Promise<BookingLinkModel> {
  const client = await getClient(deps, await clientOfLink(deps, token));
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  const id = Number(courseId);
  const choices = await linkChoices(deps, Number.isSafeInteger(id) ? id : undefined);
  return { agency: client.name, ...choices, actions, values: {}, errors: {} };
}

export function bookingLinkPage(m: BookingLinkModel, timeZone: string): string {
  const page = (title: string, html: string) => layout(title, html, m.agency);
  const notice = m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : '';
  const courses = `<form method="get" action="${escapeHtml(m.actions.choose)}">
<label for="course_id">Course</label>
<select id="course_id" name="course_id">${m.courses.map((c) => `<option value="${c.id}"${c.id === m.course?.id ? ' selected' : ''}>${escapeHtml(c.name)}</option>`).join('')}</select>
<button type="submit">Show dates</button>
</form>`;
  const head = `<h1>Book a training course with ${escapeHtml(m.agency)}</h1>\n<p>Choose a course and a date, enter your details, then pay for your place on the next page.</p>\n${notice}\n${m.courses.length > 1 || !m.course ? courses : ''}`;
  if (!m.course) return page(`Book training with ${m.agency}`, head);
  const e = m.errors;
  const val = m.values;
  const dates = m.events
    .map(
      (ev) => `<div class="slot"><input type="radio" id="event-${ev.id}" name="training_event_id" value="${ev.id}"${val.training_event_id === String(ev.id) ? ' checked' : ''}>
<label for="event-${ev.id}">${escapeHtml(readableTime(ev.start_at, timeZone))}, ${escapeHtml(ev.location.name)}, ${escapeHtml(ev.location.town)} (${ev.seats_available} seat${ev.seats_available === 1 ? '' : 's'} left)</label></div>`,
    )
    .join('\n');
  if (!m.events.length) return page(`Book ${m.course.name}`, `${head}\n<h2>${escapeHtml(m.course.name)}</h2><p>There are no dates open for booking just now. Please try again later, or ask ${escapeHtml(m.agency)}.</p>`);
  return page(`Book ${m.course.name}`, `${head}
<form method="post" action="${escapeHtml(m.actions.book)}">
<input type="hidden" name="course_id" value="${m.course.id}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<fieldset><legend>${escapeHtml(m.course.name)}: choose a date</legend>
${e.training_event_id ? `<p class="error" id="training_event_id-error">${escapeHtml(e.training_event_id)}</p>` : ''}
${dates}
</fieldset>
${candidateFields(val, e, 'optional')}
<button type="submit">Book and go to payment</button>
</form>`);
}
