import { walletTransactions } from '../../core/wallets.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { PageQuery } from './schemas.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer', query: PageQuery }, async ({ deps, caller, family, query }) => ({
  status: 200,
  body: await walletTransactions(deps, caller.clientId, family, query),
}));
