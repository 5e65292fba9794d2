import * as practicalTrainingPublic from '../../api/routes/practical-training-public.js';
import { getClient } from '../../core/access/clients.js';
import { certificatePdf } from '../../core/practical-training/certificates.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingPublic.downloadCertificate, async ({ deps, caller, params }) => {
  const client = await getClient(deps, caller.clientId);
  const { number, pdf } = await certificatePdf(deps, { clientId: caller.clientId, name: client?.name ?? '' }, params.id);
  return { status: 200, body: pdf, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="certificate-${number}.pdf"` } };
});
