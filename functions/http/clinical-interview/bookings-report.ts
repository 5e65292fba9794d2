import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { downloadReport } from '../../core/clinical-interview/reports.js';
import { createObjectReader } from '../../core/documents/signed-get.js';
import { httpHandler } from '../../middleware/http-handler.js';

const readObject = createObjectReader();

export const handler = httpHandler(clinicalInterview.downloadInterviewReport, async ({ deps, caller, params }) => ({
  status: 200,
  body: await downloadReport(deps, readObject, caller.clientId, params.id),
  headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="interview-report-${params.id}.pdf"` },
}));
