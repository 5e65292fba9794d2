import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { getClient } from '../../core/access/clients.js';
import { vlsCertificatePdf } from '../../core/virtual-life-support/certificates.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(virtualLifeSupport.downloadCertificate, async ({ deps, caller, params }) => {
  const client = await getClient(deps, caller.clientId);
  const { number, pdf } = await vlsCertificatePdf(deps, { clientId: caller.clientId, name: client?.name ?? '' }, params.id);
  return { status: 200, body: pdf, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="certificate-${number}.pdf"` } };
});
