import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { productFields, type ProductRef } from './ledger.js';
import { openWallet, walletKeys } from './wallets.js';

/**
 * How long before seeding the demo's opening balances are dated: before the
 * oldest booking the demo makes in the past (a month back), so a client's
 * ledger reads top-ups first, then the debits they paid for.
 */
export const DEMO_OPENED_DAYS_AGO = 60;

/** A demo client's opening balances in one family (credits per product, and money); only a wallet never written gets one. */
export async function openDemoBalances(
  deps: Deps,
  clientId: string,
  family: FamilyId,
  products: readonly ProductRef[],
  credits: number,
  moneyMinor: number,
): Promise<void> {
  const openedAt = new Date(deps.clock().getTime() - DEMO_OPENED_DAYS_AGO * 86_400_000);
  const then: Deps = { ...deps, clock: () => openedAt };
  const owner = { client_id: clientId, family, booking_id: null, note: 'demo opening balance' };
  for (const product of products) {
    await openWallet(then, walletKeys.credits(clientId, family, product.id), credits, {
      ...owner,
      kind: 'credit_topup',
      unit: 'credits',
      ...productFields(product),
    });
  }
  await openWallet(then, walletKeys.money(clientId, family), moneyMinor, { ...owner, kind: 'money_topup', unit: 'GBP', ...productFields(null) });
}
