import * as portalV2 from '../../api/routes/portal-v2.js';
import { sendReminders } from '../../core/portal-v2/reference-requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.sendReminders, async ({ deps, family, caller, params }) => {
  const { request, reminders_sent } = await sendReminders(deps, caller.clientId, params.id);
  return { status: 200, body: single(family, request, `${reminders_sent} reminder${reminders_sent === 1 ? '' : 's'} sent`) };
});
