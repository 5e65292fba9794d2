import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { getClient } from '../../core/access/clients.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { DomainError } from '../../core/platform/errors.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { bookVlsWithInvite } from '../../core/virtual-life-support/invites.js';
import { formErrors } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { fundsNotice, goneMeanwhile, liveInvite } from '../shared/_invite-pages.js';
import { parseAddress, vlsBookedPage, VlsInviteForm, vlsInvitePage, vlsInvitePageModel } from './_invite-pages.js';

/** Books the chosen timeslot with the invite: once per invite. `candidate_pays` goes on to the payment page. */
export const handler = pageHandler(pages.submitInvitePage, async ({ deps, params, form, baseUrl }) => {
  const live = await liveInvite(deps, params.token, VLS_FAMILY);
  if ('html' in live) return live;
  const model = await vlsInvitePageModel(deps, live, linkTo(baseUrl, pages.submitInvitePage, { token: params.token }));
  const again = (status: number, extra: { errors?: Record<string, string>; notice?: string }) => ({ status, html: vlsInvitePage({ ...model, values: form, errors: extra.errors ?? {}, notice: extra.notice }) });
  const parsed = v.safeParse(VlsInviteForm, form);
  const address = model.course?.equipment_required ? parseAddress(form) : undefined;
  if (!parsed.success || (address && !address.success)) {
    return again(422, { errors: { ...(parsed.success ? {} : formErrors(parsed.issues, 'slot')), ...(address && !address.success ? formErrors(address.issues, 'line1') : {}) } });
  }
  const { slot, nmc_number, ...candidate } = parsed.output;
  const [date, time] = slot.split('T') as [string, string];
  try {
    const booking = await bookVlsWithInvite(deps, params.token, { ...candidate, nmc_number: nmc_number || null, date, time, delivery_address: address?.output }, {
      payment: (token) => linkTo(baseUrl, pages.showPaymentPage, { token }),
    });
    const stored = await getBookingItem(deps, live.client_id, booking.id, VLS_FAMILY);
    if (stored?.payment_token) return { redirect: linkTo(baseUrl, pages.showPaymentPage, { token: stored.payment_token }) };
    return { status: 200, html: vlsBookedPage(booking, (await getClient(deps, live.client_id))?.name ?? 'Your agency') };
  } catch (err) {
    const gone = await goneMeanwhile(deps, params.token, err, VLS_FAMILY);
    if (gone) return gone;
    if (!(err instanceof DomainError)) throw err;
    const funds = fundsNotice(err, live.candidate.first_name);
    if (funds) return again(422, { notice: funds });
    return again(422, { notice: err.message });
  }
});
