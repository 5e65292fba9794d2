import { clinicalInterview } from '../../api/routes/clinical-interview.js';
import { downloadReport } from '../../core/documents/reports.js';
import { createObjectReader } from '../../core/documents/s3-get.js';
import { httpHandler } from '../../middleware/http-handler.js';

const readObject = createObjectReader();

export const handler = httpHandler(clinicalInterview.downloadInterviewReport, async ({ deps, caller, params }) => ({
  status: 200,
  body: await downloadReport(deps, readObject, caller.clientId, params.id),
  headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="interview-report-${params.id}.pdf"` },
}));
