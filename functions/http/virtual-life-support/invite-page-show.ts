import * as pages from '../../api/routes/virtual-life-support.js';
import { openInvite } from '../../core/practical-training/invites-page.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { inviteNotice, liveInvite } from '../shared/_invite-pages.js';
import { VLS_SEAT_LOST, vlsInviteActions, vlsInvitePage, vlsInvitePageModel } from './_invite-pages.js';

/** A life-support request's invite page: only counts the opening (a HEAD not even that); it never uses the invite. */
export const handler = pageHandler(pages.showInvitePage, async ({ deps, params, query, method, baseUrl }) => {
  const live = await liveInvite(deps, params.token, VLS_FAMILY);
  if ('html' in live) return live;
  const invite = await openInvite(deps, params.token, method === 'GET', VLS_FAMILY);
  const model = await vlsInvitePageModel(deps, invite, vlsInviteActions(baseUrl, params.token));
  return { status: 200, html: vlsInvitePage({ ...model, notice: inviteNotice(query, VLS_SEAT_LOST) }, deps.config.serviceTimeZone) };
});
