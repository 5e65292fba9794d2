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
import { linkPage } from '../shared/_booking-link-page.js';
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
export const linkActions = (baseUrl: string, token: string): BookingLinkModel['actions'] => ({
  choose: linkTo(baseUrl, pages.showBookingPage, { token }),
  book: linkTo(baseUrl, pages.submitBookingPage, { token }),
});

export async function bookingLinkModel(
  deps: Deps,
  token: string,
  courseId: string | undefined,
  actions: BookingLinkModel['actions'],
): Promise<BookingLinkModel> {
  const client = await getClient(deps, await clientOfLink(deps, token));
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  const id = Number(courseId);
  const choices = await linkChoices(deps, Number.isSafeInteger(id) ? id : undefined);
  return { agency: client.name, ...choices, actions, values: {}, errors: {} };
}

export function bookingLinkPage(m: BookingLinkModel, timeZone: string): string {
  const choices = m.events.map((ev) => ({
    value: String(ev.id),
    label: `${readableTime(ev.start_at, timeZone)}, ${ev.location.name}, ${ev.location.town} (${ev.seats_available} seat${ev.seats_available === 1 ? '' : 's'} left)`,
  }));
  return linkPage({ ...m, what: 'a training course', unit: 'date', field: 'training_event_id', choices });
}
