import { tokenOperations } from '../../api/routes/shared.js';
import { refreshTokenPair } from '../../core/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { NO_STORE } from './_tokens.js';

export const handler = httpHandler(tokenOperations.refreshToken, async ({ deps, family, body }) => ({
  status: 200,
  body: await refreshTokenPair(deps, body.refresh_token, family),
  headers: NO_STORE,
}));
