import * as shared from '../../api/routes/shared.js';
import { revokeGrant } from '../../core/access/revocation.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.revokeToken, async ({ deps, caller }) => {
  await revokeGrant(deps, caller.grantId);
  return { status: 204 };
});
