import * as shared from '../../api/routes/shared.js';
import { productsOf } from '../../core/registries/products.js';
import { balances } from '../../core/commerce/wallets.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.getBalances, async ({ deps, caller, family }) => {
  const { label, products } = await productsOf(deps, family);
  return { status: 200, body: await balances(deps, caller.clientId, family, products, label) };
});
