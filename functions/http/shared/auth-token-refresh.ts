import * as shared from '../../api/routes/shared.js';
import { throttledAuthentication } from '../../core/access/rate-limit.js';
import { refreshTokenPair } from '../../core/access/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.refreshToken, async ({ deps, family, body, sourceIp }) => ({
  status: 200,
  body: await throttledAuthentication(deps, { address: sourceIp }, () => refreshTokenPair(deps, body.refresh_token, family)),
}));
