import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { DomainError } from '../../core/platform/errors.js';
import { bookWithInvite } from '../../core/practical-training/invites-page.js';
import { formErrors } from '../../middleware/html.js';
import { fundsNotice, inviteAgency, seatLost } from '../shared/_invite-pages.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { bookedPage, goneMeanwhile, inviteActions, InviteBookingForm, inviteFormModel, inviteFormPage, liveInvite } from './_invite-pages.js';

/**
 * Books the invite's held seat: once per invite. `candidate_pays` goes on to
 * the payment page. Refused while the seat is held, the form again says why;
 * with no seat held, back to the invite page's dates.
 */
export const handler = pageHandler(pages.submitInvitePage, async ({ deps, params, form, baseUrl }) => {
  const live = await liveInvite(deps, params.token);
  if ('html' in live) return live;
  const again = async (status: number, extra: { errors?: Record<string, string>; notice?: string }) => {
    const model = await inviteFormModel(deps, live, inviteActions(baseUrl, params.token));
    if (!model) return seatLost(baseUrl, pages.submitInvitePage, params.token);
    return { status, html: inviteFormPage({ ...model, values: form, errors: extra.errors ?? {}, notice: extra.notice }, deps.config.serviceTimeZone) };
  };
  const parsed = v.safeParse(InviteBookingForm, form);
  if (!parsed.success) {
    const errors = formErrors(parsed.issues, 'first_name');
    return again(422, { errors });
  }
  const { nmc_number, ...candidate } = parsed.output;
  try {
    const { booking, paymentToken } = await bookWithInvite(
      deps,
      params.token,
      { ...candidate, nmc_number: nmc_number || null },
      {
        payment: (token) => linkTo(baseUrl, pages.showPaymentPage, { token }),
      },
    );
    if (paymentToken) return { redirect: linkTo(baseUrl, pages.showPaymentPage, { token: paymentToken }) };
    return { status: 200, html: bookedPage(booking, deps.config.serviceTimeZone, await inviteAgency(deps, live)) };
  } catch (err) {
    const gone = await goneMeanwhile(deps, params.token, err);
    if (gone) return gone;
    if (!(err instanceof DomainError)) throw err;
    const funds = fundsNotice(err, live.candidate.first_name);
    if (funds) return again(422, { notice: funds });
    if (err.code.startsWith('hold-')) return seatLost(baseUrl, pages.submitInvitePage, params.token);
    return again(422, { notice: err.message });
  }
});
