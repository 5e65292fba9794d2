import * as v from 'valibot';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { DomainError } from '../../core/platform/errors.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { holdVlsSlotForInvite } from '../../core/virtual-life-support/invites.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { goneMeanwhile, holdNotice, liveInvite } from '../shared/_invite-pages.js';
import { SlotField, splitSlot, vlsInviteActions, vlsInvitePage, vlsInvitePageModel } from './_invite-pages.js';

/** Holds a seat of the chosen timeslot for the invite (HOLD_MINUTES), then back to the invite page. */
export const handler = pageHandler(pages.holdInviteSeat, async ({ deps, params, form, baseUrl }) => {
  const back = { redirect: linkTo(baseUrl, pages.showInvitePage, params) };
  try {
    const slot = v.safeParse(SlotField, form.slot);
    if (!slot.success) throw new DomainError('slot-unavailable', 'Choose a time', { reason: 'unknown' });
    await holdVlsSlotForInvite(deps, params.token, splitSlot(slot.output));
    return back;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'hold-conflict') return back; // a seat is held already: the page shows it
    const gone = await goneMeanwhile(deps, params.token, err, VLS_FAMILY);
    if (gone) return gone;
    if (!(err instanceof DomainError)) throw err;
    const live = await liveInvite(deps, params.token, VLS_FAMILY);
    if ('html' in live) return live;
    const model = await vlsInvitePageModel(deps, live, vlsInviteActions(baseUrl, params.token));
    return { status: 422, html: vlsInvitePage({ ...model, notice: holdNotice(err) }, deps.config.serviceTimeZone) };
  }
});
