import { sendReminders } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idParam } from '../shared/fields.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer' }, async ({ deps, caller, params }) => {
  const { request, reminders_sent } = await sendReminders(deps, caller.clientId, idParam(params, 'reference request'));
  return { status: 200, body: { data: request, message: `${reminders_sent} reminder${reminders_sent === 1 ? '' : 's'} sent` } };
});
