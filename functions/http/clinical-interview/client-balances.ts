import { loadCatalog } from '../../core/catalog.js';
import { balances } from '../../core/wallets.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, family }) => {
  const { types } = await loadCatalog(deps);
  return { status: 200, body: await balances(deps, caller.clientId, family, types) };
});
