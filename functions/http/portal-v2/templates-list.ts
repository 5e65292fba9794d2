import * as portalV2 from '../../api/routes/portal-v2.js';
import { listRequestTemplates } from '../../core/portal-v2/request-templates.js';
import { listTemplates } from '../../core/portal-v2/templates.js';
import { httpHandler } from '../../middleware/http-handler.js';

/** Reference templates (questions), or with `?kind=` a request group's presets. */
export const handler = httpHandler(portalV2.listTemplates, async ({ deps, query }) => ({
  status: 200,
  body: { data: query.kind && query.kind !== 'reference' ? await listRequestTemplates(deps, query.kind) : await listTemplates(deps), next_cursor: null },
}));
