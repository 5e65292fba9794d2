import { tokenOperations } from '../../api/routes/shared.js';
import { revokeGrant } from '../../core/access/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(tokenOperations.revokeToken, async ({ deps, caller }) => {
  await revokeGrant(deps, caller.grantId);
  return { status: 204 };
});
