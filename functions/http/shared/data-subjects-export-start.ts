import * as dataSubjects from '../../api/routes/data-subjects.js';
import { startExport } from '../../core/data-rights/requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { requester, subjectFamily } from './_data-subjects.js';

/** 202: the export runs as a job; poll GET /data-subjects/exports/{id}. */
export const handler = httpHandler(
  dataSubjects.startDataSubjectExport,
  async ({ deps, caller, family, body, acting }) => ({
    status: 202,
    body: single(family, await startExport(deps, subjectFamily(family), requester(caller.clientId, acting), body.email), 'Export accepted'),
  }),
  { idempotency },
);
