import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { evidenceJson, evidencePdf } from '../../core/registration-monitoring/evidence.js';
import type { HttpResult } from '../../middleware/http-handler.js';
import { monitoringHandler } from './_acting.js';

/** The PDF, or with `Accept: application/json` the record's exact JSON with its `Repr-Digest`; either re-hashed before it is served. */
export const handler = monitoringHandler(registrationMonitoring.downloadEvidence, async ({ deps, caller, params, headers }): Promise<HttpResult> => {
  if (/application\/json/i.test(headers.accept ?? '')) {
    const { body, digest } = await evidenceJson(deps, caller.clientId, params.id);
    return {
      status: 200,
      body,
      headers: { 'content-type': 'application/json', 'repr-digest': digest, 'content-disposition': `attachment; filename="evidence-${params.id}.json"` },
    };
  }
  return {
    status: 200,
    body: await evidencePdf(deps, caller.clientId, params.id),
    headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="evidence-${params.id}.pdf"` },
  };
});
