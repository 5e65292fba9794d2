import * as portalV2 from '../../api/routes/portal-v2.js';
import { groupRequestPdf } from '../../core/portal-v2/request-pdf.js';
import { checkGroupRead } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.downloadGroupRequestPdf, async ({ deps, log, caller, params, headers }) => {
  const body = await groupRequestPdf(deps, caller.clientId, params.group, params.id);
  await checkGroupRead(deps, log, caller.clientId, params.group, params.id, 'pdf', headers['acting-user']);
  return { status: 200, body, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${params.group.replace(/s$/, '')}-${params.id}.pdf"` } };
});
