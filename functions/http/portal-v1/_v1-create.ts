import { familyBaseUrl } from '../../core/platform/family-urls.js';
import { groupKindOf, type NewGroupRequest } from '../../core/portal-v2/group-engine.js';
import { createRequestOfKind } from '../../core/portal-v2/request-create.js';
import type { GroupDeclaration } from '../../core/requests/group.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import type { Op } from './_v1.js';

/**
 * Portal v1's create operations: portal v2's create for a fixed group, given
 * by its declaration, so that the function carries that group and no other
 * (and apart from ./_v1.ts, so that reads do not load what creating needs).
 */

export const createFor = (group: GroupDeclaration, op: Op & { idempotent: true }) =>
  httpHandler(
    op,
    async ({ deps, family, caller, body }) => ({
      status: 201,
      // Links in the request (pages, files) are portal v2's: that is where they are served.
      body: single(
        family,
        await createRequestOfKind(deps, caller.clientId, groupKindOf(group), body as unknown as NewGroupRequest, familyBaseUrl('portal-v2')),
        `${group.title} created`,
      ),
    }),
    { idempotency },
  );
