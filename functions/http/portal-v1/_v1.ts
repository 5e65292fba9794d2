import type { Operation } from '../../api/routes/operation.js';
import type { PageQuery } from '../../api/schemas/fields.js';
import type { GroupRequestsQuery } from '../../api/schemas/portal-v2-groups.js';
import type * as v from 'valibot';
import { checkGroupRead, getGroupRequest, kindOf, listGroupRequests } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

/**
 * Portal v1's request operations are portal v2's for a fixed group (one
 * serializer): the same core calls, the same objects and envelopes.
 */

export type Op = Operation & { family: 'portal-v1'; auth: 'bearer' };
type IdOp = Op & { path: `${string}/{id}` };

export const listFor = (segment: string, op: Op & { query: typeof GroupRequestsQuery }) =>
  httpHandler(op, async ({ deps, caller, query }) => ({
    status: 200,
    body: await listGroupRequests(deps, caller.clientId, segment, query as v.InferOutput<typeof GroupRequestsQuery>),
  }));

// A health kind's read is portal v2's: `health:read` with Acting-User, and logged.
export const getFor = (segment: string, op: IdOp) =>
  httpHandler(op, async ({ deps, log, family, caller, params, headers }) => {
    const { id } = params as { id: number };
    const request = await getGroupRequest(deps, caller.clientId, segment, id);
    await checkGroupRead(deps, log, caller.clientId, segment, id, 'request', headers['acting-user']);
    return { status: 200, body: single(family, request, kindOf(segment).declaration.title) };
  });

export type { PageQuery };
