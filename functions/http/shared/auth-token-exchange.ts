import { tokenOperations } from '../../api/routes/shared.js';
import { verifyClientCredentials } from '../../core/clients.js';
import { issueTokenPair } from '../../core/tokens.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { NO_STORE } from './_tokens.js';

export const handler = httpHandler(tokenOperations.exchangeToken, async ({ deps, family, body }) => {
  const client = await verifyClientCredentials(deps, body.client_id, body.client_secret);
  return { status: 200, body: await issueTokenPair(deps, client, family), headers: NO_STORE };
});
