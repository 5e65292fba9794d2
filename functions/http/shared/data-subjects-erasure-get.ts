import * as dataSubjects from '../../api/routes/data-subjects.js';
import { getErasure } from '../../core/data-rights/requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { subjectFamily } from './_data-subjects.js';

export const handler = httpHandler(dataSubjects.getDataSubjectErasure, async ({ deps, caller, family, params }) => ({
  status: 200,
  body: single(family, await getErasure(deps, subjectFamily(family), caller.clientId, params.id), 'Erasure'),
}));
