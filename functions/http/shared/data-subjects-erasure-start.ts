import * as dataSubjects from '../../api/routes/data-subjects.js';
import { startErasure } from '../../core/data-rights/erasure-start.js';
import { DATA_SUBJECT_FINDERS } from '../../core/registries/data-subject-finders.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { requester, subjectFamily } from './_data-subjects.js';

/** 202: the erasure runs as a job; poll GET /data-subjects/erasures/{id}. */
export const handler = httpHandler(
  dataSubjects.startDataSubjectErasure,
  async ({ deps, caller, family, body, acting }) => ({
    status: 202,
    body: single(
      family,
      await startErasure(deps, DATA_SUBJECT_FINDERS[subjectFamily(family)], requester(caller.clientId, acting), body.email),
      'Erasure accepted',
    ),
  }),
  { idempotency },
);
