import type { Operation } from '../../api/routes/operation.js';
import type { PageQuery } from '../../api/schemas/fields.js';
import type { CandidateCreate } from '../../api/schemas/portal-v2.js';
import type * as v from 'valibot';
import { createCandidate, getCandidate, listCandidates } from '../../core/portal-v2/candidates.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

/** The candidate operations, as portal v2 serves them and portal v1 serves them again (one serializer). */

type Op = Operation & { family: 'portal-v2' | 'portal-v1'; auth: 'bearer' };

export const listCandidatesHandler = (op: Op & { query: typeof PageQuery }) =>
  httpHandler(op, async ({ deps, caller, query }) => ({
    status: 200,
    body: await listCandidates(deps, caller.clientId, query as v.InferOutput<typeof PageQuery>),
  }));

export const createCandidateHandler = (op: Op & { body: typeof CandidateCreate; idempotent: true }) =>
  httpHandler(
    op,
    async ({ deps, family, caller, body }) => ({
      status: 201,
      body: single(family, await createCandidate(deps, caller.clientId, body as v.InferOutput<typeof CandidateCreate>), 'Candidate created'),
    }),
    { idempotency },
  );

export const getCandidateHandler = (op: Op & { path: '/candidates/{id}' }) =>
  httpHandler(op, async ({ deps, family, caller, params }) => ({
    status: 200,
    body: single(family, await getCandidate(deps, caller.clientId, params.id), 'Candidate'),
  }));
