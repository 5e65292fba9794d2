import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { VLS_FAMILY } from '../../core/virtual-life-support/catalogue.js';
import { releaseVlsInviteSlot } from '../../core/virtual-life-support/invites.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { goneMeanwhile } from '../shared/_invite-pages.js';

/** Gives the invite's seat back, then back to the invite page to choose again. */
export const handler = pageHandler(pages.releaseInviteSeat, async ({ deps, params, baseUrl }) => {
  try {
    await releaseVlsInviteSlot(deps, params.token);
  } catch (err) {
    const gone = await goneMeanwhile(deps, params.token, err, VLS_FAMILY);
    if (gone) return gone;
    // Released meanwhile (expired, or another tab): nothing left to give back.
    if (!(err instanceof Error && 'code' in err && err.code === 'not-found')) throw err;
  }
  return { redirect: linkTo(baseUrl, pages.showInvitePage, params) };
});
