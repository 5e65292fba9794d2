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
import { parseAddress, vlsBookedPage, vlsInviteActions, vlsInviteFormModel, vlsInviteFormPage } from './_invite-pages.js';

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
  const again = async (status: number, extra: { errors?: Record<string, string>; notice?: string }) => {
    const model = await vlsInviteFormModel(deps, live, vlsInviteActions(baseUrl, params.token));
    if (!model) return back;
    return { status, html: vlsInviteFormPage({ ...model, values: form, errors: extra.errors ?? {}, notice: extra.notice }, tz) };
  };
  const model = await vlsInviteFormModel(deps, live, vlsInviteActions(baseUrl, params.token));
  if (!model) return back;
  const parsed = v.safeParse(InviteBookingForm, form);
  const address = model.course?.equipment_required ? parseAddress(form) : undefined;
  if (!parsed.success || (address && !address.success)) {
    return again(422, {
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
