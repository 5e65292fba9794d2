import { randomUUID } from 'node:crypto';
import { queryPage, queryPages } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { itemAbsent, putItem } from '../platform/transact.js';
import { CURRENCY } from './money.js';
import type { PayOption } from '../platform/booking-vocabulary.js';

/**
 * The append-only ledger: one per client and family; finance reads a month
 * across them from the index. An entry is only ever put (never updated), in
 * the transaction that moves the money or credits it records.
 */

/**
 * `monitoring_usage`: a month of registration monitoring checks, postpaid.
 * `candidate_payment`: what a candidate paid the provider for a candidate_pays
 * booking (money that never passes through the client's wallet); its refund
 * is a `refund` entry with `pay_option` candidate_pays and a `refund_status`.
 */
export type LedgerKind = 'credit_debit' | 'credit_topup' | 'money_debit' | 'money_topup' | 'invoice' | 'refund' | 'monitoring_usage' | 'candidate_payment';

/**
 * A provider refund's progress: written `pending` with the cancellation,
 * `sent` once the provider took it, then `settled` once it says the money
 * went back, or `failed` when it could not (a closed card): a person then
 * pays the candidate another way.
 */
export type RefundStatus = 'pending' | 'sent' | 'settled' | 'failed';

/** What a family sells: the product a charge is for. */
export interface ProductRef {
  kind: 'interview_type' | 'course';
  id: number;
  name: string;
}

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
  /** The clinical contract's name for the product; null for other products and top-ups of money. */
  interview_type: { id: number; name: string } | null;
  /** Every family's product, for finance. */
  product?: ProductRef | null;
  note?: string;
  /** What a fee entry charges for (virtual life-support kit returned late or lost). */
  fee?: 'equipment_late' | 'equipment_lost';
  /** The booking's pay option, on a booking's charge and refund entries. */
  pay_option?: PayOption;
  /** The provider's id of the candidate's payment (Stripe's PaymentIntent), on candidate payment entries and their refunds. */
  provider_reference?: string;
  /**
   * A provider refund's progress, on candidate_pays refund entries. The one
   * attribute of an entry that changes after it is put (with
   * `provider_refund_id`, the provider's id of the refund): amounts never do.
   */
  refund_status?: RefundStatus;
  provider_refund_id?: string;
}

/** A product as the ledger names it: its kind, id and name, whatever else the product carries (its price). */
export const productRef = ({ kind, id, name }: ProductRef): ProductRef => ({ kind, id, name });

/** The ledger's product fields for a product (or none). */
export const productFields = (product: ProductRef | null): Pick<LedgerEntry, 'interview_type' | 'product'> => ({
  interview_type: product?.kind === 'interview_type' ? { id: product.id, name: product.name } : null,
  product,
});

const LEDGER = TABLE_KEYS.ledger;
const LEDGER_MONTH = GSI1_KEYS.ledgerMonth;
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

export const newLedgerId = (): string => `led_${randomUUID().replaceAll('-', '')}`;

export function newLedgerEntry(deps: Deps, entry: Omit<LedgerEntry, 'id' | 'created_at'> & { id?: string }): LedgerEntry {
  return { ...entry, id: entry.id ?? newLedgerId(), created_at: deps.clock().toISOString() };
}

/** The transaction item that appends an entry. */
export const ledgerPut = (deps: Deps, entry: LedgerEntry) =>
  putItem(deps, { ...ledgerKeys.entry(entry.client_id, entry.family, entry.created_at, entry.id), entity: 'ledger', ...entry }, itemAbsent);

/**
 * The product is named as the family names it (the clinical contract's
 * `interview_type`, the course families' `course`), and again as finance
 * reads every entry: `family`, `product`, `pay_option`, and for a
 * candidate's payment `provider_reference` and its refund's `refund_status`.
 */
export const toLedgerView = (entry: LedgerEntry, timeZone: string) => {
  const { id, client_id, created_at, kind, amount, unit, balance_after, booking_id, interview_type, note } = entry;
  const finance = {
    family: entry.family,
    product: entry.product ? { kind: entry.product.kind, id: entry.product.id, name: entry.product.name } : null,
    pay_option: entry.pay_option ?? null,
    provider_reference: entry.provider_reference ?? null,
    refund_status: entry.refund_status ?? null,
  };
  // The clinical family sells interview types; every other booking family sells courses.
  const product =
    entry.family === 'clinical-interview'
      ? { interview_type }
      : { course: entry.product?.kind === 'course' ? { id: entry.product.id, name: entry.product.name } : null };
  // Only fee entries (virtual life-support kit) say what the fee was for.
  const fee = entry.fee ? { fee: entry.fee } : {};
  return {
    id,
    client_id,
    created_at: formatWithOffset(created_at, timeZone),
    kind,
    amount,
    unit,
    balance_after,
    booking_id,
    ...product,
    note: note ?? null,
    ...finance,
    ...fee,
  };
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
  const entries: LedgerEntry[] = [];
  for await (const page of ledgerPagesForMonth(deps, month)) entries.push(...page);
  return entries;
}

/** A month's entries a query page at a time, oldest first: an export that never holds the month at once. */
export async function* ledgerPagesForMonth(deps: Deps, month: string): AsyncGenerator<LedgerEntry[]> {
  for await (const items of queryPages(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': ledgerKeys.month(month) },
  })) {
    yield items.map(fromLedgerItem);
  }
}
