import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { DomainError } from '../../core/platform/errors.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { bookVlsWithInvite } from '../../core/virtual-life-support/invites.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { fundsNotice, goneMeanwhile, InviteBookingForm, inviteAgency, liveInvite, seatLost } from '../shared/_invite-pages.js';
import { parseAddress, vlsBookedPage, vlsInviteActions, vlsInviteFormModel, vlsInviteFormPage, type VlsInviteFormModel } from './_invite-pages.js';

/**
 * Books the invite's held seat: once per invite. `candidate_pays` goes on to
 * the payment page. Refused while the seat is held, the form again says why;
 * with no seat held, back to the invite page's times.
 */
export const handler = pageHandler(pages.submitInvitePage, async ({ deps, params, form, baseUrl }) => {
  const live = await liveInvite(deps, params.token, VLS_FAMILY);
  if ('html' in live) return live;
  const tz = deps.config.serviceTimeZone;
  const back = seatLost(baseUrl, pages.submitInvitePage, params.token);
  type Extra = { errors?: Record<string, string>; notice?: string };
  const formPage = (m: VlsInviteFormModel, status: number, extra: Extra) => ({
    status,
    html: vlsInviteFormPage({ ...m, values: form, errors: extra.errors ?? {}, notice: extra.notice }, tz),
  });
  const formModel = () => vlsInviteFormModel(deps, live, vlsInviteActions(baseUrl, params.token));
  // After a refused booking the seat is read again: the refusal may have been that it was gone.
  const again = async (status: number, extra: Extra) => {
    const fresh = await formModel();
    return fresh ? formPage(fresh, status, extra) : back;
  };
  const model = await formModel();
  if (!model) return back;
  const parsed = v.safeParse(InviteBookingForm, form);
  const address = model.course?.equipment_required ? parseAddress(form) : undefined;
  if (!parsed.success || (address && !address.success)) {
    return formPage(model, 422, {
      errors: {
        ...(parsed.success ? {} : formErrors(parsed.issues, 'first_name')),
        ...(address && !address.success ? formErrors(address.issues, 'line1') : {}),
      },
    });
  }
  const { nmc_number, ...candidate } = parsed.output;
  try {
    const booking = await bookVlsWithInvite(
      deps,
      params.token,
      { ...candidate, nmc_number: nmc_number || null, delivery_address: address?.output },
      {
        payment: (token) => linkTo(baseUrl, pages.showPaymentPage, { token }),
      },
    );
    const stored = await getBookingItem(deps, live.client_id, booking.id, VLS_FAMILY);
    if (stored?.payment_token) return { redirect: linkTo(baseUrl, pages.showPaymentPage, { token: stored.payment_token }) };
    return { status: 200, html: vlsBookedPage(booking, await inviteAgency(deps, live)) };
  } catch (err) {
    const gone = await goneMeanwhile(deps, params.token, err, VLS_FAMILY);
    if (gone) return gone;
    if (!(err instanceof DomainError)) throw err;
    const funds = fundsNotice(err, live.candidate.first_name);
    if (funds) return again(422, { notice: funds });
    if (err.code.startsWith('hold-')) return back;
    return again(422, { notice: err.message });
  }
});
