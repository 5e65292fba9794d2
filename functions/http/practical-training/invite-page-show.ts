import * as pages from '../../api/routes/practical-training-public.js';
import { openInvite } from '../../core/practical-training/invites-page.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { inviteNotice } from '../shared/_invite-pages.js';
import { inviteActions, invitePage, invitePageModel, liveInvite, SEAT_LOST } from './_invite-pages.js';

/** The invite page: only counts the opening (a HEAD not even that); it never uses the invite. */
export const handler = pageHandler(pages.showInvitePage, async ({ deps, params, query, method, baseUrl }) => {
  const live = await liveInvite(deps, params.token);
  if ('html' in live) return live;
  const invite = await openInvite(deps, params.token, method === 'GET');
  const model = await invitePageModel(deps, invite, inviteActions(baseUrl, params.token));
  return { status: 200, html: invitePage({ ...model, notice: inviteNotice(query, SEAT_LOST) }, deps.config.serviceTimeZone) };
});
