import { candidateFields, escapeHtml, layout } from '../../middleware/html.js';

/**
 * The page of an agency's public booking link (`/book/{t}`), the same in
 * every course family: a course chooser, then the chosen course's dates as
 * radio buttons, the candidate's details and what else the family asks; the
 * candidate pays on the next page. No JavaScript.
 */
export interface LinkPageView {
  agency: string;
  courses: { id: number; name: string }[];
  course?: { id: number; name: string };
  /** What the family books (`a training course`, `a virtual life-support session`) and calls a date (`date`, `time`). */
  what: string;
  unit: string;
  /** The radio buttons' field and choices. */
  field: string;
  choices: { value: string; label: string }[];
  actions: { choose: string; book: string };
  values: Record<string, string>;
  errors: Record<string, string>;
  notice?: string;
  /** Further form fields after the candidate's (the delivery address). */
  extra?: string;
}

export function linkPage(m: LinkPageView): string {
  const page = (title: string, html: string) => layout(title, html, m.agency);
  const notice = m.notice ? `<p class="error" role="alert">${escapeHtml(m.notice)}</p>` : '';
  const courses = `<form method="get" action="${escapeHtml(m.actions.choose)}">
<label for="course_id">Course</label>
<select id="course_id" name="course_id">${m.courses.map((c) => `<option value="${c.id}"${c.id === m.course?.id ? ' selected' : ''}>${escapeHtml(c.name)}</option>`).join('')}</select>
<button type="submit">Show ${m.unit}s</button>
</form>`;
  const head = `<h1>Book ${escapeHtml(m.what)} with ${escapeHtml(m.agency)}</h1>\n<p>Choose a course and a ${m.unit}, enter your details, then pay for your place on the next page.</p>\n${notice}\n${m.courses.length > 1 || !m.course ? courses : ''}`;
  if (!m.course) return page(`Book training with ${m.agency}`, head);
  if (!m.choices.length) return page(`Book ${m.course.name}`, `${head}\n<h2>${escapeHtml(m.course.name)}</h2><p>There are no ${m.unit}s open for booking just now. Please try again later, or ask ${escapeHtml(m.agency)}.</p>`);
  const e = m.errors;
  const val = m.values;
  const radios = m.choices
    .map((c) => {
      const id = `${m.field === 'slot' ? 'slot' : 'event'}-${c.value.replace(/[^0-9A-Za-z]/g, '')}`;
      return `<div class="slot"><input type="radio" id="${id}" name="${m.field}" value="${escapeHtml(c.value)}"${val[m.field] === c.value ? ' checked' : ''}>
<label for="${id}">${escapeHtml(c.label)}</label></div>`;
    })
    .join('\n');
  return page(`Book ${m.course.name}`, `${head}
<form method="post" action="${escapeHtml(m.actions.book)}">
<input type="hidden" name="course_id" value="${m.course.id}">
${Object.keys(e).length ? '<p class="error" role="alert">Please correct the highlighted answers.</p>' : ''}
<fieldset><legend>${escapeHtml(m.course.name)}: choose a ${m.unit}</legend>
${e[m.field] ? `<p class="error" id="${m.field}-error">${escapeHtml(e[m.field]!)}</p>` : ''}
${radios}
</fieldset>
${candidateFields(val, e, 'optional')}
${m.extra ?? ''}
<button type="submit">Book and go to payment</button>
</form>`);
}
