import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { groupRequestPdf } from '../../core/portal-v2/request-pdf.js';
import { logGroupRead, requireGroupRequest } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

// Another client's request is 404 first; then the route's Acting-User rule (health:read for a health kind), and the read is logged.
export const handler = httpHandler(
  requestGroups.downloadGroupRequestPdf,
  async ({ deps, log, caller, params, acting }) => {
    const body = await groupRequestPdf(deps, caller.clientId, params.group, params.id);
    logGroupRead(log, caller.clientId, params.group, params.id, 'pdf', acting);
    return {
      status: 200,
      body,
      headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${params.group.replace(/s$/, '')}-${params.id}.pdf"` },
    };
  },
  { resource: ({ deps, caller, params }) => requireGroupRequest(deps, caller.clientId, params.group, params.id) },
);
