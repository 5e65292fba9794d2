import { formatMoney } from '../../core/commerce/charges.js';
import type { Money } from '../../core/commerce/money.js';
import { alertNotice, candidateFields, escapeHtml, layout } from '../../middleware/html.js';

/**
 * The page of an agency's public booking link (`/book/{t}`), the same in
 * every course family: a course chooser, then the chosen course's dates as
 * radio buttons, the candidate's details and what else the family asks; the
 * candidate pays on the next page. No JavaScript.
 */
/** What the page says of a course: its name, length and price (the candidate pays it on the next page). */
interface LinkCourse {
  id: number;
  name: string;
  duration_minutes: number;
  price: Money;
}

const length = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`);

export interface LinkPageView {
  agency: string;
  courses: LinkCourse[];
  course?: LinkCourse;
  /** What the family books (`a training course`, `a virtual life-support session`) and calls a date (`date`, `time`). */
  what: string;
  unit: string;
  /** The radio buttons' field and choices; choices with a `day` are shown under it, several to a line (a day's times). */
  field: string;
  choices: { value: string; label: string; day?: string }[];
  actions: { choose: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
  /** Further form fields after the candidate's (the delivery address). */
  extra?: string;
}

export function linkPage(m: LinkPageView): string {
  const page = (title: string, html: string) => layout(title, html, m.agency);
  const notice = alertNotice(m.notice);
  const courses = `<form method="get" action="${escapeHtml(m.actions.choose)}">
<label for="course_id">Course</label>
<select id="course_id" name="course_id">${m.courses.map((c) => `<option value="${c.id}"${c.id === m.course?.id ? ' selected' : ''}>${escapeHtml(c.name)}, ${formatMoney(c.price)}</option>`).join('')}</select>
<button type="submit">Show ${m.unit}s</button>
</form>`;
  const head = `<h1>Book ${escapeHtml(m.what)} with ${escapeHtml(m.agency)}</h1>\n<p>Choose a course and a ${m.unit}, enter your details, then pay for your place on the next page.</p>\n${notice}\n${m.courses.length > 1 || !m.course ? courses : ''}`;
  if (!m.course) return page(`Book training with ${m.agency}`, head);
  const price = formatMoney(m.course.price);
  const about = `<h2>${escapeHtml(m.course.name)}</h2>\n<p class="price">${length(m.course.duration_minutes)}, <strong>${price}</strong></p>`;
  if (!m.choices.length)
    return page(
      `Book ${m.course.name}`,
      `${head}\n${about}<p>There are no ${m.unit}s open for booking just now. Please try again later, or ask ${escapeHtml(m.agency)}.</p>`,
    );
  const e = m.errors;
  const val = m.values;
  const radio = (c: LinkPageView['choices'][number]) => {
    const id = `${m.field === 'slot' ? 'slot' : 'event'}-${c.value.replace(/[^0-9A-Za-z]/g, '')}`;
    return `<${c.day ? 'span' : 'div'} class="slot"><input type="radio" id="${id}" name="${m.field}" value="${escapeHtml(c.value)}"${val[m.field] === c.value ? ' checked' : ''}>
<label for="${id}">${escapeHtml(c.label)}</label></${c.day ? 'span' : 'div'}>`;
  };
  const days = [...new Set(m.choices.map((c) => c.day))];
  const radios = days
    .map((day) => {
      const own = m.choices
        .filter((c) => c.day === day)
        .map(radio)
        .join('\n');
      return day ? `<div class="day"><p class="day-name">${escapeHtml(day)}</p>\n${own}</div>` : own;
    })
    .join('\n');
  return page(
    `Book ${m.course.name}`,
    `${head}
${about}
<form method="post" action="${escapeHtml(m.actions.book)}">
<input type="hidden" name="course_id" value="${m.course.id}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<fieldset><legend>Choose a ${m.unit}</legend>
${e[m.field] ? `<p class="error" id="${m.field}-error">${escapeHtml(e[m.field]!)}</p>` : ''}
${radios}
</fieldset>
${candidateFields(val, e, 'optional')}
${m.extra ?? ''}
<p class="total">To pay: <strong>${price}</strong>, on the next page.</p>
<button type="submit">Book and go to payment</button>
</form>`,
  );
}
