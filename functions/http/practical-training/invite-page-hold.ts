import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { DomainError } from '../../core/platform/errors.js';
import { holdSeatForInvite } from '../../core/practical-training/invites-page.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { holdNotice } from '../shared/_invite-pages.js';
import { goneMeanwhile, inviteActions, invitePage, invitePageModel, liveInvite } from './_invite-pages.js';

/** Holds a seat of the chosen event for the invite, then back to the invite page. */
export const handler = pageHandler(pages.holdInviteSeat, async ({ deps, params, form, baseUrl }) => {
  const back = { redirect: linkTo(baseUrl, pages.showInvitePage, params) };
  const eventId = Number(form.training_event_id);
  try {
    if (!Number.isSafeInteger(eventId) || eventId < 1) throw new DomainError('event-unavailable', 'Choose a date');
    await holdSeatForInvite(deps, params.token, eventId);
    return back;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'hold-conflict') return back; // a seat is held already: the page shows it
    const gone = await goneMeanwhile(deps, params.token, err);
    if (gone) return gone;
    if (!(err instanceof DomainError)) throw err;
    const live = await liveInvite(deps, params.token);
    if ('html' in live) return live;
    const model = await invitePageModel(deps, live, inviteActions(baseUrl, params.token));
    return { status: 422, html: invitePage({ ...model, notice: holdNotice(err) }, deps.config.serviceTimeZone) };
  }
});
