import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { isLinkWithdrawn } from '../../core/bookings/link-withdrawn.js';
import { DomainError } from '../../core/platform/errors.js';
import { bookVlsFromLink } from '../../core/virtual-life-support/booking-link.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { vlsLinkModel, VlsLinkForm } from './_booking-link.js';
import { parseAddress, splitSlot, vlsLinkActions, vlsLinkPage } from './_invite-pages.js';

/** Books a seat of the chosen time for the candidate, who pays on the next page. */
export const handler = pageHandler(pages.submitBookingPage, async ({ deps, params, form, baseUrl }) => {
  const model = await vlsLinkModel(deps, params.token, form.course_id, vlsLinkActions(baseUrl, params.token));
  const again = (status: number, extra: { errors?: Record<string, string>; notice?: string }) => ({
    status,
    html: vlsLinkPage({ ...model, values: form, errors: extra.errors ?? {}, notice: extra.notice }),
  });
  if (!model.course) return again(422, { notice: 'Choose a course first.' });
  const parsed = v.safeParse(VlsLinkForm, form);
  const address = model.course.equipment_required ? parseAddress(form) : undefined;
  if (!parsed.success || (address && !address.success)) {
    return again(422, {
      errors: { ...(parsed.success ? {} : formErrors(parsed.issues, 'slot')), ...(address && !address.success ? formErrors(address.issues, 'line1') : {}) },
    });
  }
  const { slot, nmc_number, ...candidate } = parsed.output;
  try {
    const { paymentToken } = await bookVlsFromLink(
      deps,
      params.token,
      { ...candidate, ...splitSlot(slot), course_id: model.course.id, nmc_number: nmc_number || null, delivery_address: address?.output },
      { payment: (token) => linkTo(baseUrl, pages.showPaymentPage, { token }) },
    );
    return { redirect: linkTo(baseUrl, pages.showPaymentPage, { token: paymentToken }) };
  } catch (err) {
    if (!(err instanceof DomainError) || err.code === 'not-found' || isLinkWithdrawn(err)) throw err;
    if (err.code === 'slot-unavailable' && err.extensions.reason === 'full')
      return again(409, { errors: { slot: 'Every seat at that time has just been taken. Please choose another.' } });
    if (err.code === 'limit-reached')
      return again(422, {
        notice: 'Too many bookings made through this page are waiting for payment just now. Please try again later, or ask your agency to book for you.',
      });
    return again(422, { errors: { slot: 'That time is no longer open for booking. Please choose another.' } });
  }
});
