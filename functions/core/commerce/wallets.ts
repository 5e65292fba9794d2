import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import type { SoldProduct } from './products.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import {
  checkItem,
  itemAbsent,
  itemExists,
  part,
  transact,
  TransactionFailed,
  updateItem,
  type Condition,
  type Failure,
  type Part,
} from '../platform/transact.js';
import { crossing, type BalanceAlertPolicy } from './thresholds.js';
import { ledgerPut, newLedgerEntry, productFields, type LedgerEntry, type ProductRef } from './ledger.js';
import { CURRENCY, type Money } from './money.js';

/**
 * Credit wallets (one per product: interview type, course) and the money
 * balance of each client in each family. A balance changes only in a
 * transaction that also appends its ledger entry; the wallet's version makes
 * the change conditional on the balance it was computed from, so
 * `balance_after` is always true, a balance never goes below zero, and one
 * debit alone sees a threshold crossing.
 */

const CLIENT = TABLE_KEYS.client;
export const walletKeys = {
  credits: (clientId: string, family: FamilyId, productId: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.wallet, family, 'CREDITS', padId(productId)),
  }),
  money: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.wallet, family, 'MONEY') }),
  /** Every wallet of one family. */
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.wallet, family),
};

export interface WalletState {
  key: { pk: string; sk: string };
  balance: number;
  version: number;
  /** Alerts not yet sent since the balance last rose above their threshold (absent: armed). */
  armed: { low: boolean; depleted: boolean };
  /** The low threshold the wallet was last debited under, so a top-up without a policy can re-arm it. */
  lowAt?: number;
}

export async function readWallet(deps: Deps, key: { pk: string; sk: string }): Promise<WalletState> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  return {
    key,
    balance: Number(Item?.balance ?? 0),
    version: Number(Item?.version ?? 0),
    armed: { low: Item?.low_armed !== false, depleted: Item?.depleted_armed !== false },
    lowAt: Item?.low_at === undefined ? undefined : Number(Item.low_at),
  };
}

/** Named condition: the wallet is as it was read (or still absent, if it was). */
export const walletUnchanged = (wallet: WalletState): Condition =>
  wallet.version === 0 ? itemAbsent : { expression: 'version = :version', values: { ':version': wallet.version } };

/** `id` may be chosen by the caller, to link the entry from what it pays for. */
export type WalletEntry = Omit<LedgerEntry, 'id' | 'created_at' | 'balance_after' | 'amount'> & { id?: string };

/**
 * The transaction parts that move a wallet by `delta` from the state it was
 * read in: the wallet (part "wallet"), its ledger entry ("ledger") and, when
 * the move crosses a threshold of `alerts`, each alert ("low alert", "depleted alert").
 */
export function walletMove(
  deps: Deps,
  wallet: WalletState,
  delta: number,
  entry: WalletEntry,
  alerts?: BalanceAlertPolicy,
  options: { overdraw?: boolean } = {},
): Part[] {
  const balanceAfter = wallet.balance + delta;
  // Only a fee may overdraw (virtual life-support kit): it is owed whatever the balance.
  // A credit may leave a balance a fee overdrew still below zero (a top-up, a refunded fee).
  if (delta < 0 && balanceAfter < 0 && !options.overdraw) throw new Error('walletMove would take a wallet below zero');
  const ledger = newLedgerEntry(deps, { ...entry, amount: delta, balance_after: balanceAfter });
  const lowAt = alerts?.lowAt ?? wallet.lowAt;
  const crossed = lowAt === undefined ? undefined : crossing({ before: wallet.balance, after: balanceAfter, lowAt, armed: wallet.armed });
  const parts = [
    part(
      'wallet',
      updateItem(
        deps,
        wallet.key,
        {
          set: {
            balance: balanceAfter,
            version: wallet.version + 1,
            updated_at: ledger.created_at,
            entity: 'wallet',
            ...(crossed ? { low_armed: crossed.armed.low, depleted_armed: crossed.armed.depleted, low_at: lowAt } : {}),
          },
        },
        walletUnchanged(wallet),
      ),
    ),
    part('ledger', ledgerPut(deps, ledger)),
  ];
  for (const level of alerts ? (crossed?.alerts ?? []) : []) {
    parts.push(
      part(`${level} alert`, alerts!.announce({ level, balance: balanceAfter, threshold: level === 'low' ? alerts!.lowAt : 0, ledgerEntryId: ledger.id })),
    );
  }
  return parts;
}

export interface TopUpOptions {
  /** Refuse (not-found) unless the client exists, checked in the same transaction (operators type client ids by hand). */
  requireClient?: boolean;
}

async function topUp(deps: Deps, walletKey: { pk: string; sk: string }, amount: number, entry: WalletEntry, options: TopUpOptions = {}) {
  if (!Number.isInteger(amount) || amount <= 0) throw new DomainError('invalid-state', 'A top-up must be a positive whole number');
  const clientCheck = options.requireClient ? [part('client', checkItem(deps, clientKeys.item(entry.client_id), itemExists))] : [];
  const failures: Record<string, Failure> = options.requireClient ? { client: new DomainError('not-found', `No client ${entry.client_id}`) } : {};
  return retryOnConflict(async () => {
    const wallet = await readWallet(deps, walletKey);
    await transact(deps, [...walletMove(deps, wallet, amount, entry), ...clientCheck], failures);
    return wallet.balance + amount;
  });
}

/** A credits wallet's product: an interview type unless it says otherwise (a course). */
type CreditProduct = Pick<SoldProduct, 'id' | 'name'> & { kind?: ProductRef['kind'] };
const productOf = (type: CreditProduct): ProductRef => ({ kind: type.kind ?? 'interview_type', id: type.id, name: type.name });

export const topUpCredits = (deps: Deps, clientId: string, family: FamilyId, type: CreditProduct, credits: number, note?: string, options?: TopUpOptions) =>
  topUp(
    deps,
    walletKeys.credits(clientId, family, type.id),
    credits,
    {
      client_id: clientId,
      family,
      kind: 'credit_topup',
      unit: 'credits',
      booking_id: null,
      ...productFields(productOf(type)),
      note,
    },
    options,
  );

export const topUpMoney = (deps: Deps, clientId: string, family: FamilyId, amountMinor: number, note?: string, options?: TopUpOptions) =>
  topUp(
    deps,
    walletKeys.money(clientId, family),
    amountMinor,
    {
      client_id: clientId,
      family,
      kind: 'money_topup',
      unit: CURRENCY,
      booking_id: null,
      ...productFields(null),
      note,
    },
    options,
  );

/** A wallet's first balance, written only if it was never written (demo data, concurrent seeders). */
export async function openWallet(deps: Deps, walletKey: { pk: string; sk: string }, amount: number, entry: WalletEntry): Promise<void> {
  const wallet = await readWallet(deps, walletKey);
  if (wallet.version !== 0) return;
  await transact(deps, walletMove(deps, wallet, amount, entry)).catch((err: unknown) => {
    if (!(err instanceof TransactionFailed && err.has('wallet'))) throw err; // another seeder opened it
  });
}

export interface Balances {
  /** Keyed by the family's product: `interview_type`, or `course`. */
  credits: ({ [label in ProductRef['kind']]?: { id: number; name: string } } & { credits: number })[];
  money: Money;
}

/** The client's wallets in one family: only that family's; `label` names the product in each credits entry. */
export async function balances(
  deps: Deps,
  clientId: string,
  family: FamilyId,
  types: Pick<SoldProduct, 'id' | 'name' | 'active'>[],
  label: ProductRef['kind'] = 'interview_type',
): Promise<Balances> {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': walletKeys.familyPrefix(family) },
      ConsistentRead: true,
    }),
  );
  const bySk = new Map(Items.map((i) => [String(i.sk), Number(i.balance)]));
  const credits = (t: Pick<SoldProduct, 'id'>) => bySk.get(walletKeys.credits(clientId, family, t.id).sk);
  return {
    credits: types.filter((t) => t.active || credits(t) !== undefined).map((t) => ({ [label]: { id: t.id, name: t.name }, credits: credits(t) ?? 0 })),
    money: { amount: bySk.get(walletKeys.money(clientId, family).sk) ?? 0, currency: CURRENCY },
  };
}
