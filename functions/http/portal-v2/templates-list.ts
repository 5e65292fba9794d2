import { portalV2 } from '../../api/routes/portal-v2.js';
import { listTemplates } from '../../core/portal-v2/templates.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.listTemplates, async ({ deps }) => ({
  status: 200,
  body: { data: await listTemplates(deps), next_cursor: null },
}));
