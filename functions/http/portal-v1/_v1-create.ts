import { familyBaseUrl } from '../../core/platform/family-urls.js';
import { createGroupRequest } from '../../core/portal-v2/request-create.js';
import { kindOf, type NewGroupRequest } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import type { Op } from './_v1.js';

/** Portal v1's create operations: portal v2's create for a fixed group (apart from ./_v1.ts, so that reads do not load what creating needs). */

export const createFor = (segment: string, op: Op & { idempotent: true }) =>
  httpHandler(
    op,
    async ({ deps, family, caller, body }) => ({
      status: 201,
      // Links in the request (pages, files) are portal v2's: that is where they are served.
      body: single(family, await createGroupRequest(deps, caller.clientId, segment, body as unknown as NewGroupRequest, familyBaseUrl('portal-v2')), `${kindOf(segment).declaration.title} created`),
    }),
    { idempotency },
  );
