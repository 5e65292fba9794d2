import * as shared from '../../api/routes/shared.js';
import { walletTransactions } from '../../core/commerce/ledger.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.listWalletTransactions, async ({ deps, caller, family, query }) => ({
  status: 200,
  body: await walletTransactions(deps, caller.clientId, family, query),
}));
