import * as portalV2 from '../../api/routes/portal-v2.js';
import { referencePdf } from '../../core/portal-v2/reference-pdf.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.downloadReferencePdf, async ({ deps, caller, params }) => {
  const id = params.id;
  return {
    status: 200,
    body: await referencePdf(deps, caller.clientId, id),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="reference-${id}.pdf"` },
  };
});
