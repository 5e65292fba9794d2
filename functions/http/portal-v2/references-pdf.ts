import { referencePdf } from '../../core/reference-pdf.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idParam } from '../shared/fields.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer' }, async ({ deps, caller, params }) => {
  const id = idParam(params, 'reference');
  return {
    status: 200,
    body: await referencePdf(deps, caller.clientId, id),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="reference-${id}.pdf"` },
  };
});
