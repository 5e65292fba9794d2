import * as pages from '../../api/routes/virtual-life-support.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { vlsLinkModel } from './_booking-link.js';
import { vlsLinkActions, vlsLinkPage } from './_invite-pages.js';

/** The agency's booking link: its courses, the chosen course's open times and the candidate form. */
export const handler = pageHandler(pages.showBookingPage, async ({ deps, params, query, baseUrl }) => ({
  status: 200,
  html: vlsLinkPage(await vlsLinkModel(deps, params.token, query.course_id, vlsLinkActions(baseUrl, params.token))),
}));
