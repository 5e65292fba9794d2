import { createS3Client, downloadReport } from '../../core/reports.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { bookingIdParam } from './schemas.js';

const s3 = createS3Client();

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, params }) => {
  const id = bookingIdParam(params);
  return {
    status: 200,
    body: await downloadReport(deps, s3, caller.clientId, id),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="interview-report-${id}.pdf"` },
  };
});
