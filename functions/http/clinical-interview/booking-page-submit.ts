import * as v from 'valibot';
import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { createCandidateBooking } from '../../core/clinical-interview/booking-api.js';
import { DomainError } from '../../core/platform/errors.js';
import { beyondHorizon } from '../../core/platform/time.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { bookingPageModel, BookingPageForm } from './_booking-page.js';
import { bookingPage } from './_pages.js';

/** A candidate books a slot from the agency's page; they pay on the next page. */
export const handler = pageHandler(clinicalInterview.submitBookingPage, async ({ deps, params, form, baseUrl }) => {
  const action = linkTo(baseUrl, clinicalInterview.submitBookingPage, params);
  const paymentPage = (token: string) => linkTo(baseUrl, clinicalInterview.showPaymentPage, { token });
  const model = await bookingPageModel(deps, params.token, form.interview_type_id, action);
  const again = (errors: Record<string, string>, status: number) => ({ status, html: bookingPage({ ...model, values: form, errors }) });

  const parsed = v.safeParse(BookingPageForm, form);
  if (!parsed.success) {
    const errors = formErrors(parsed.issues, 'slot');
    return again(errors, 422);
  }
  const { slot, interview_type_id, ...candidate } = parsed.output;
  const [date, time] = slot.split('T') as [string, string];
  if (beyondHorizon(date, deps.clock(), deps.config.serviceTimeZone)) return again({ slot: 'Choose a time' }, 422);
  try {
    const { paymentToken } = await createCandidateBooking(
      deps,
      model.clientId,
      { ...candidate, interviewTypeId: interview_type_id, date, time },
      { payment: paymentPage },
    );
    // A candidate-paid booking always has a payment request.
    return { redirect: paymentPage(paymentToken!) };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'slot-unavailable') {
      return again({ slot: 'That time has just been taken. Please choose another.' }, 409);
    }
    if (err instanceof DomainError && err.code === 'limit-reached') {
      // The link's limit of unpaid bookings: nothing was booked.
      return {
        status: 422,
        html: bookingPage({
          ...model,
          values: form,
          errors: {},
          notice: `${model.agency} has too many bookings waiting for payment through this page just now. Please try again later, or ask ${model.agency} to book for you.`,
        }),
      };
    }
    throw err;
  }
});
