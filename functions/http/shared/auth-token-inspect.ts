import * as shared from '../../api/routes/shared.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.inspectToken, async ({ caller }) => ({
  status: 200,
  body: {
    active: true,
    client_id: caller.clientId,
    family: caller.family,
    issued_at: caller.issuedAt,
    expires_at: caller.expiresAt,
  },
}));
