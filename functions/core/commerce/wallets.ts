import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { InterviewType } from '../clinical-interview/catalog.js';
import { queryAll, queryPage, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, GSI1_KEYS, key, TABLE_KEYS } from '../platform/key-registry.js';
import { CURRENCY, type Money } from './money.js';
import { clientKeys } from '../access/clients.js';
import { formatWithOffset } from '../platform/time.js';

/**
 * Credit wallets (one per product: interview type, course) and the money
 * balance of each client in each family, and the append-only ledger (one per
 * client and family; finance reads a month across them). A balance changes
 * only in a transaction that also appends its ledger entry; the wallet's
 * version makes the change conditional on the balance it was computed from,
 * so `balance_after` is always true and a balance never goes below zero.
 */

export type LedgerKind = 'credit_debit' | 'credit_topup' | 'money_debit' | 'money_topup' | 'invoice' | 'refund';

export interface LedgerEntry {
  id: string;
  client_id: string;
  family: FamilyId;
  created_at: string;
  kind: LedgerKind;
  amount: number;
  unit: 'credits' | typeof CURRENCY;
  balance_after: number | null;
  booking_id: number | null;
  interview_type: { id: number; name: string } | null;
  note?: string;
}

const { client: CLIENT, ledger: LEDGER } = TABLE_KEYS;
const LEDGER_MONTH = GSI1_KEYS.ledgerMonth;
export const walletKeys = {
  credits: (clientId: string, family: FamilyId, productId: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.wallet, family, 'CREDITS', padId(productId)) }),
  money: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.wallet, family, 'MONEY') }),
  /** Every wallet of one family. */
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.wallet, family),
};

export const ledgerKeys = {
  partition: (clientId: string, family: FamilyId) => key(LEDGER.pk, family, clientId),
  entry: (clientId: string, family: FamilyId, createdAt: string, id: string) => ({
    pk: key(LEDGER.pk, family, clientId),
    sk: key(LEDGER.sk.entry, createdAt, id),
    // Finance reads a month across clients and families from the index.
    gsi1pk: key(LEDGER_MONTH.pk, createdAt.slice(0, 7)),
    gsi1sk: key(LEDGER_MONTH.sk.entry, createdAt, family, clientId, id),
  }),
  month: (month: string) => key(LEDGER_MONTH.pk, month),
};

export interface WalletState {
  key: { pk: string; sk: string };
  balance: number;
  version: number;
}

export async function readWallet(deps: Deps, key: { pk: string; sk: string }): Promise<WalletState> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  return { key, balance: Number(Item?.balance ?? 0), version: Number(Item?.version ?? 0) };
}

/** The transaction items that move a wallet by `delta` from the state it was read in, with its ledger entry. */
export function walletChange(
  deps: Deps,
  wallet: WalletState,
  delta: number,
  entry: Omit<LedgerEntry, 'id' | 'created_at' | 'balance_after' | 'amount'>,
) {
  const createdAt = deps.clock().toISOString();
  const id = `led_${randomUUID().replaceAll('-', '')}`;
  const balanceAfter = wallet.balance + delta;
  if (balanceAfter < 0) throw new Error('walletChange would take a wallet below zero');
  const ledger: LedgerEntry = { id, created_at: createdAt, amount: delta, balance_after: balanceAfter, ...entry };
  return [
    {
      Update: {
        TableName: deps.table,
        Key: wallet.key,
        UpdateExpression: 'SET balance = :after, version = :next, updated_at = :now, entity = :entity',
        // First write of a wallet: it must still be absent; otherwise it must be unchanged since we read it.
        ConditionExpression: wallet.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
        ExpressionAttributeValues: {
          ':after': balanceAfter,
          ':next': wallet.version + 1,
          ':now': createdAt,
          ':entity': 'wallet',
          ...(wallet.version === 0 ? {} : { ':version': wallet.version }),
        },
      },
    },
    ledgerPut(deps, ledger),
  ];
}

export function ledgerPut(deps: Deps, entry: LedgerEntry) {
  return {
    Put: {
      TableName: deps.table,
      Item: { ...ledgerKeys.entry(entry.client_id, entry.family, entry.created_at, entry.id), entity: 'ledger', ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function newLedgerEntry(deps: Deps, entry: Omit<LedgerEntry, 'id' | 'created_at'>): LedgerEntry {
  return { id: `led_${randomUUID().replaceAll('-', '')}`, created_at: deps.clock().toISOString(), ...entry };
}

async function topUp(deps: Deps, walletKey: { pk: string; sk: string }, amount: number, entry: Omit<LedgerEntry, 'id' | 'created_at' | 'balance_after' | 'amount'>) {
  if (!Number.isInteger(amount) || amount <= 0) throw new DomainError('invalid-state', 'A top-up must be a positive whole number');
  return retryOnConflict(async () => {
    const wallet = await readWallet(deps, walletKey);
    await deps.db.send(new TransactWriteCommand({ TransactItems: walletChange(deps, wallet, amount, entry) }));
    return wallet.balance + amount;
  });
}

export const topUpCredits = (deps: Deps, clientId: string, family: FamilyId, type: InterviewType, credits: number, note?: string) =>
  topUp(deps, walletKeys.credits(clientId, family, type.id), credits, {
    client_id: clientId,
    family,
    kind: 'credit_topup',
    unit: 'credits',
    booking_id: null,
    interview_type: { id: type.id, name: type.name },
    note,
  });

export const topUpMoney = (deps: Deps, clientId: string, family: FamilyId, amountMinor: number, note?: string) =>
  topUp(deps, walletKeys.money(clientId, family), amountMinor, {
    client_id: clientId,
    family,
    kind: 'money_topup',
    unit: CURRENCY,
    booking_id: null,
    interview_type: null,
    note,
  });

export interface Balances {
  credits: { interview_type: { id: number; name: string }; credits: number }[];
  money: Money;
}

/** The client's wallets in one family: only that family's. */
export async function balances(deps: Deps, clientId: string, family: FamilyId, types: InterviewType[]): Promise<Balances> {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': walletKeys.familyPrefix(family) },
      ConsistentRead: true,
    }),
  );
  const bySk = new Map(Items.map((i) => [String(i.sk), Number(i.balance)]));
  const credits = (t: InterviewType) => bySk.get(walletKeys.credits(clientId, family, t.id).sk);
  return {
    credits: types
      .filter((t) => t.active || credits(t) !== undefined)
      .map((t) => ({ interview_type: { id: t.id, name: t.name }, credits: credits(t) ?? 0 })),
    money: { amount: bySk.get(walletKeys.money(clientId, family).sk) ?? 0, currency: CURRENCY },
  };
}

/** No `family`: the contract's entry has none, and a family's list shows only its own entries. */
export const toLedgerView = (entry: LedgerEntry, timeZone: string) => {
  const { id, client_id, created_at, kind, amount, unit, balance_after, booking_id, interview_type, note } = entry;
  return { id, client_id, created_at: formatWithOffset(created_at, timeZone), kind, amount, unit, balance_after, booking_id, interview_type, note: note ?? null };
};

/** The client's ledger in one family, newest first. */
export const walletTransactions = (deps: Deps, clientId: string, family: FamilyId, page: { limit: number; cursor?: string }) =>
  queryPage(deps, { pk: ledgerKeys.partition(clientId, family), ...page }, (e) => toLedgerView(e as unknown as LedgerEntry, deps.config.serviceTimeZone));

function fromLedgerItem(item: Record<string, unknown>): LedgerEntry {
  const { pk, sk, gsi1pk, gsi1sk, entity, ...entry } = item;
  return entry as unknown as LedgerEntry;
}

/** Every ledger entry of a month across clients and families, oldest first: finance's export. */
export async function ledgerForMonth(deps: Deps, month: string): Promise<LedgerEntry[]> {
  const items = await queryAll(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': ledgerKeys.month(month) },
  });
  return items.map(fromLedgerItem);
}
