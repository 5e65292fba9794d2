import type { ClientAccount } from '../access/clients.js';
import { clientKeys } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { checkItem, part, type Failure, type Part } from '../platform/transact.js';
import type { BookingStatus, PAY_STATUSES as PAY_STATUS_VALUES, PayOption } from '../platform/booking-vocabulary.js';
import { ledgerPut, newLedgerEntry, newLedgerId, productFields, productRef, type LedgerEntry, type ProductRef } from './ledger.js';
import { CURRENCY, type Money } from './money.js';
import { getPaymentRequest, newPaymentRequest, paymentRequestCancelled, paymentRequestPut, paymentRequestRefunded } from './payment-requests.js';
import { refundOwedParts } from './refunds.js';
import type { BalanceAlertPolicy } from './thresholds.js';
import { readWallet, walletKeys, walletMove } from './wallets.js';

/**
 * The four pay options in one place: what a booking costs (`planCharge`) and
 * what cancelling it gives back (`planRefund`), each as named transaction
 * parts the booking's own transaction carries. A refund is worked out from
 * what the charge recorded on the booking, so it always mirrors it.
 */

export type PayStatus = (typeof PAY_STATUS_VALUES)[number];

export interface Product extends ProductRef {
  price: Money;
}

/** What a pay option takes (credits, or minor units of the price) and the statuses the booking starts in. */
export interface PaymentTerms {
  charge: number;
  unit: 'credits' | typeof CURRENCY;
  bookingStatus: BookingStatus;
  payStatus: PayStatus;
}

const PAY_STATUSES: Record<PayOption, Pick<PaymentTerms, 'bookingStatus' | 'payStatus'>> = {
  credits: { bookingStatus: 'booked', payStatus: 'completed' },
  balance: { bookingStatus: 'booked', payStatus: 'completed' },
  invoice: { bookingStatus: 'booked', payStatus: 'invoiced' },
  candidate_pays: { bookingStatus: 'pending_payment', payStatus: 'pending' },
};

export const formatMoney = (m: Money) => `£${(m.amount / 100).toFixed(2)}`;

const invoiceDisabled = () => new DomainError('invoice-disabled', 'Invoice payments are not enabled on this account');

/**
 * The pure rule of a pay option: one credit of the product, or the price from
 * the money balance, on the client's invoice or from the candidate. `funds` is
 * the wallet the option draws on (credits or minor units), as read now.
 * Refusals are domain errors.
 */
export function paymentTerms(
  payOption: PayOption,
  product: Pick<Product, 'name' | 'price'>,
  account: { funds?: number; invoiceEnabled: boolean },
): PaymentTerms {
  const funds = account.funds ?? 0;
  const terms: PaymentTerms = { charge: product.price.amount, unit: CURRENCY, ...PAY_STATUSES[payOption] };
  if (payOption === 'credits') {
    if (funds < 1) throw new DomainError('insufficient-credits', `No ${product.name} credits left`, { credits: funds });
    return { ...terms, charge: 1, unit: 'credits' };
  }
  if (payOption === 'balance' && funds < product.price.amount) {
    throw new DomainError(
      'insufficient-balance',
      `The booking costs ${formatMoney(product.price)}; the balance is ${formatMoney({ ...product.price, amount: funds })}`,
      {
        balance: { amount: funds, currency: product.price.currency },
        price: product.price,
      },
    );
  }
  if (payOption === 'invoice' && !account.invoiceEnabled) throw invoiceDisabled();
  return terms;
}

export interface ChargeRequest {
  client: ClientAccount;
  family: FamilyId;
  product: Product;
  payOption: PayOption;
  bookingId: number;
  /** When a candidate's payment is due (candidate_pays only). */
  paymentDueAt?: string;
  /** Balance alerts of the wallet drawn on, for families that send them. */
  alerts?: { credits?: BalanceAlertPolicy; money?: BalanceAlertPolicy };
}

export interface ChargePlan extends PaymentTerms {
  parts: Part[];
  /** Domain errors of failed parts; a wallet that changed since it was read has none, so the caller retries. */
  failures: Record<string, Failure>;
  paymentToken?: string;
}

/** The parts that charge a booking by its pay option, from balances read now. Refusals change nothing. */
export async function planCharge(deps: Deps, req: ChargeRequest): Promise<ChargePlan> {
  const { client, family, product, payOption, bookingId } = req;
  const entry = { client_id: client.clientId, family, booking_id: bookingId, ...productFields(productRef(product)), pay_option: payOption };
  const termsFrom = (funds?: number) => paymentTerms(payOption, product, { funds, invoiceEnabled: client.invoiceEnabled });
  switch (payOption) {
    case 'credits': {
      const wallet = await readWallet(deps, walletKeys.credits(client.clientId, family, product.id));
      const terms = termsFrom(wallet.balance);
      return {
        ...terms,
        parts: walletMove(deps, wallet, -terms.charge, { ...entry, kind: 'credit_debit', unit: terms.unit }, req.alerts?.credits),
        failures: {},
      };
    }
    case 'balance': {
      const wallet = await readWallet(deps, walletKeys.money(client.clientId, family));
      const terms = termsFrom(wallet.balance);
      return { ...terms, parts: walletMove(deps, wallet, -terms.charge, { ...entry, kind: 'money_debit', unit: terms.unit }, req.alerts?.money), failures: {} };
    }
    case 'invoice': {
      const terms = termsFrom();
      return {
        ...terms,
        parts: [
          // Invoicing may be switched off between our read and the commit.
          part('invoicing', checkItem(deps, clientKeys.item(client.clientId), invoicingEnabled)),
          part('ledger', ledgerPut(deps, newLedgerEntry(deps, { ...entry, kind: 'invoice', amount: terms.charge, unit: terms.unit, balance_after: null }))),
        ],
        failures: { invoicing: invoiceDisabled() },
      };
    }
    case 'candidate_pays': {
      const terms = termsFrom();
      const request = newPaymentRequest(deps, { client_id: client.clientId, family, booking_id: bookingId, amount: product.price, due_at: req.paymentDueAt });
      return { ...terms, parts: [part('payment request', paymentRequestPut(deps, request))], failures: {}, paymentToken: request.token };
    }
  }
}

/** Named condition: the client may pay by invoice. */
const invoicingEnabled = { expression: 'invoice_enabled = :yes', values: { ':yes': true } };
/** Named condition: the client does not pay by invoice. */
const invoicingOff = { expression: 'attribute_exists(pk) AND (attribute_not_exists(invoice_enabled) OR invoice_enabled = :no)', values: { ':no': false } };

/** What a booking's charge recorded: enough to give it back. */
export interface ChargeRecord {
  client_id: string;
  family: FamilyId;
  booking_id: number;
  product: ProductRef;
  price: Money;
  pay_option: PayOption;
  pay_status: PayStatus;
  payment_token?: string;
}

export interface RefundPlan {
  parts: Part[];
  payStatus: PayStatus;
}

/**
 * The parts that undo a charge: credits or money back to the wallet it came
 * from, a credit note against an invoice, a provider refund of a candidate's
 * payment, or an unpaid payment request cancelled. `refund: false` (a late
 * cancellation, a no-show) keeps what was paid and only stops an unpaid request.
 */
export async function planRefund(
  deps: Deps,
  charge: ChargeRecord,
  options: { note?: string; refund?: boolean; alerts?: ChargeRequest['alerts'] } = {},
): Promise<RefundPlan> {
  const entry = {
    client_id: charge.client_id,
    family: charge.family,
    kind: 'refund' as const,
    booking_id: charge.booking_id,
    ...productFields(productRef(charge.product)),
    pay_option: charge.pay_option,
    note: options.note,
  };
  const unpaidRequest = charge.pay_status === 'pending' && charge.payment_token;
  if (unpaidRequest)
    return { parts: [part('payment request', paymentRequestCancelled(deps, charge.family, charge.payment_token!))], payStatus: charge.pay_status };
  if (options.refund === false || charge.pay_status === 'refunded') return { parts: [], payStatus: charge.pay_status };
  if (charge.pay_status === 'invoiced') {
    return {
      parts: [part('ledger', ledgerPut(deps, newLedgerEntry(deps, { ...entry, amount: -charge.price.amount, unit: CURRENCY, balance_after: null })))],
      payStatus: 'refunded',
    };
  }
  switch (charge.pay_option) {
    case 'credits': {
      const wallet = await readWallet(deps, walletKeys.credits(charge.client_id, charge.family, charge.product.id));
      return { parts: walletMove(deps, wallet, 1, { ...entry, unit: 'credits' }, options.alerts?.credits), payStatus: 'refunded' };
    }
    case 'balance': {
      const wallet = await readWallet(deps, walletKeys.money(charge.client_id, charge.family));
      return { parts: walletMove(deps, wallet, charge.price.amount, { ...entry, unit: CURRENCY }, options.alerts?.money), payStatus: 'refunded' };
    }
    case 'candidate_pays': {
      // The candidate paid the provider, not the client's wallet: the refund is owed to them, sent by the refunds worker.
      if (!charge.payment_token) return { parts: [], payStatus: 'refunded' };
      const paid = await getPaymentRequest(deps, charge.family, charge.payment_token);
      const owed = paid?.provider_reference
        ? refundOwedParts(deps, {
            client_id: charge.client_id,
            family: charge.family,
            booking_id: charge.booking_id,
            product: productRef(charge.product),
            amount: paid.amount.amount,
            providerReference: paid.provider_reference,
            note: options.note,
          })
        : [];
      return { parts: [part('payment request', paymentRequestRefunded(deps, charge.family, charge.payment_token)), ...owed], payStatus: 'refunded' };
    }
    case 'invoice':
      return { parts: [], payStatus: charge.pay_status };
  }
}

export type FeeKind = NonNullable<LedgerEntry['fee']>;

export interface FeeRequest {
  client: Pick<ClientAccount, 'clientId' | 'invoiceEnabled'>;
  family: FamilyId;
  bookingId: number;
  product: ProductRef;
  amount: Money;
  fee: FeeKind;
}

/**
 * The parts that charge the client a fee, whatever the booking's pay option:
 * an invoice line when invoicing is on, else a money debit with no
 * sufficiency condition (the balance may go negative, and then refuses
 * `balance` bookings until topped up). `ledgerEntryId` names the entry.
 */
export async function planFee(deps: Deps, req: FeeRequest): Promise<{ parts: Part[]; ledgerEntryId: string; via: 'invoice' | 'money' }> {
  const ledgerEntryId = newLedgerId();
  const entry = {
    id: ledgerEntryId,
    client_id: req.client.clientId,
    family: req.family,
    booking_id: req.bookingId,
    ...productFields(productRef(req.product)),
    fee: req.fee,
  };
  // Decided on the client as read: if invoicing was switched since, the transaction fails here and the fee is planned again.
  const invoicing = part('invoicing', checkItem(deps, clientKeys.item(req.client.clientId), req.client.invoiceEnabled ? invoicingEnabled : invoicingOff));
  if (req.client.invoiceEnabled) {
    return {
      parts: [
        invoicing,
        part('ledger', ledgerPut(deps, newLedgerEntry(deps, { ...entry, kind: 'invoice', amount: req.amount.amount, unit: CURRENCY, balance_after: null }))),
      ],
      ledgerEntryId,
      via: 'invoice',
    };
  }
  const wallet = await readWallet(deps, walletKeys.money(req.client.clientId, req.family));
  return {
    parts: [invoicing, ...walletMove(deps, wallet, -req.amount.amount, { ...entry, kind: 'money_debit', unit: CURRENCY }, undefined, { overdraw: true })],
    ledgerEntryId,
    via: 'money',
  };
}

/** Gives a fee back as it was charged: a credit against the invoice, or the money to the balance (`refund` entries). */
export async function planFeeRefund(deps: Deps, req: FeeRequest & { via: 'invoice' | 'money'; note?: string }): Promise<Part[]> {
  const entry = {
    client_id: req.client.clientId,
    family: req.family,
    kind: 'refund' as const,
    booking_id: req.bookingId,
    ...productFields(productRef(req.product)),
    fee: req.fee,
    note: req.note,
  };
  if (req.via === 'invoice')
    return [part('ledger', ledgerPut(deps, newLedgerEntry(deps, { ...entry, amount: -req.amount.amount, unit: CURRENCY, balance_after: null })))];
  const wallet = await readWallet(deps, walletKeys.money(req.client.clientId, req.family));
  return walletMove(deps, wallet, req.amount.amount, { ...entry, unit: CURRENCY });
}
