import * as shared from '../../api/routes/shared.js';
import { ensureEntitled, verifyClientCredentials } from '../../core/access/clients.js';
import { throttledAuthentication } from '../../core/access/rate-limit.js';
import { issueTokenPair } from '../../core/access/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.exchangeToken, async ({ deps, family, body, sourceIp }) => {
  const client = await throttledAuthentication(deps, { address: sourceIp, clientId: body.client_id }, () =>
    verifyClientCredentials(deps, body.client_id, body.client_secret),
  );
  ensureEntitled(client, family);
  return { status: 200, body: await issueTokenPair(deps, client, family) };
});
