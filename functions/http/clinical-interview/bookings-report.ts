import { downloadReport } from '../../core/reports.js';
import { createObjectReader } from '../../core/s3-get.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { bookingIdParam } from './schemas.js';

const readObject = createObjectReader();

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, params }) => {
  const id = bookingIdParam(params);
  return {
    status: 200,
    body: await downloadReport(deps, readObject, caller.clientId, id),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="interview-report-${id}.pdf"` },
  };
});
