import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { DomainError } from '../../core/platform/errors.js';
import { bookFromLink } from '../../core/practical-training/booking-link.js';
import { getTrainingEventItem } from '../../core/practical-training/catalogue.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { bookingLinkModel, BookingLinkForm, bookingLinkPage, linkActions } from './_booking-link-page.js';

/** Books the chosen date for the candidate, who pays on the next page. */
export const handler = pageHandler(pages.submitBookingPage, async ({ deps, params, form, baseUrl }) => {
  const tz = deps.config.serviceTimeZone;
  const eventId = Number(form.training_event_id);
  // The form again shows the course of the date chosen, or the course the form was for.
  const chosen = Number.isSafeInteger(eventId) && eventId > 0 ? (await getTrainingEventItem(deps, eventId))?.course_id : undefined;
  const again = async (status: number, extra: { errors?: Record<string, string>; notice?: string }) => {
    const model = await bookingLinkModel(deps, params.token, chosen === undefined ? form.course_id : String(chosen), linkActions(baseUrl, params.token));
    return { status, html: bookingLinkPage({ ...model, values: form, errors: extra.errors ?? {}, notice: extra.notice }, tz) };
  };
  const parsed = v.safeParse(BookingLinkForm, form);
  if (!parsed.success) {
    const errors = formErrors(parsed.issues, 'training_event_id');
    return again(422, { errors });
  }
  const { training_event_id, nmc_number, ...candidate } = parsed.output;
  try {
    const { paymentToken } = await bookFromLink(
      deps,
      params.token,
      training_event_id,
      { ...candidate, nmc_number: nmc_number || null },
      {
        payment: (token) => linkTo(baseUrl, pages.showPaymentPage, { token }),
      },
    );
    return { redirect: linkTo(baseUrl, pages.showPaymentPage, { token: paymentToken }) };
  } catch (err) {
    if (!(err instanceof DomainError) || err.code === 'not-found') throw err;
    if (err.code === 'event-full') return again(409, { errors: { training_event_id: 'Every seat of that date has just been taken. Please choose another.' } });
    if (err.code === 'limit-reached')
      return again(422, {
        notice: 'Too many bookings made through this page are waiting for payment just now. Please try again later, or ask your agency to book for you.',
      });
    return again(422, { errors: { training_event_id: 'That date is no longer open for booking. Please choose another.' } });
  }
});
