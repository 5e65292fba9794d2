import { portalV2 } from '../../api/routes/portal-v2.js';
import { groupRequestPdf } from '../../core/portal-v2/request-pdf.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.downloadGroupRequestPdf, async ({ deps, caller, params }) => ({
  status: 200,
  body: await groupRequestPdf(deps, caller.clientId, params.group, params.id),
  headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${params.group.replace(/s$/, '')}-${params.id}.pdf"` },
}));
