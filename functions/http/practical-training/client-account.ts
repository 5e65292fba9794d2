import * as practicalTraining from '../../api/routes/practical-training.js';
import { getClient } from '../../core/access/clients.js';
import { accountView } from '../../core/practical-training/account.js';
import { DomainError } from '../../core/platform/errors.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.getAccount, async ({ deps, caller }) => {
  const client = await getClient(deps, caller.clientId);
  if (!client) throw new DomainError('not-found', 'No such client');
  return { status: 200, body: await accountView(deps, client) };
});
