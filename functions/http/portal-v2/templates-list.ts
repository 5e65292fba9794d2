import { listTemplates } from '../../core/templates.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer' }, async ({ deps }) => ({
  status: 200,
  body: { data: await listTemplates(deps), next_cursor: null },
}));
