import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getClient } from '../../../functions/core/access/clients.js';
import { planCharge, planRefund, type ChargeRecord, type Product } from '../../../functions/core/commerce/charges.js';
import { getPaymentRequest, paymentRequestPaid } from '../../../functions/core/commerce/payment-requests.js';
import type { BalanceAlertPolicy } from '../../../functions/core/commerce/thresholds.js';
import { readWallet, topUpCredits, topUpMoney, walletKeys } from '../../../functions/core/commerce/wallets.js';
import { retryOnConflict } from '../../../functions/core/platform/db.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { part, putItem, transact } from '../../../functions/core/platform/transact.js';
import type { PayOption } from '../../../functions/core/platform/booking-vocabulary.js';
import { CI } from '../../support/clinical.js';
import { ledgerOf, newClient, outboxPayloads, settle } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

let deps: Deps;
let clock: TestClock;
beforeAll(async () => {
  clock = testClock('2026-11-23T08:00:00.000Z');
  deps = await testDeps({ clock });
});

const product: Product = { kind: 'interview_type', id: 7, name: 'RN clinical interview', price: { amount: 4000, currency: 'GBP' } };
let nextBooking = 1000;

/** Charges one booking of `product` the way the bookings engine does: read, plan, commit, retry on a lost race. */
async function charge(clientId: string, payOption: PayOption, alerts?: BalanceAlertPolicy, paymentDueAt?: string): Promise<ChargeRecord> {
  const bookingId = nextBooking++;
  const client = (await getClient(deps, clientId))!;
  return retryOnConflict(async () => {
    const plan = await planCharge(deps, {
      client,
      family: CI,
      product,
      payOption,
      bookingId,
      paymentDueAt,
      alerts: alerts && { credits: alerts, money: alerts },
    });
    await transact(deps, plan.parts, plan.failures);
    return {
      client_id: clientId,
      family: CI,
      booking_id: bookingId,
      product,
      price: product.price,
      pay_option: payOption,
      pay_status: plan.payStatus,
      payment_token: plan.paymentToken,
    };
  });
}

async function refund(record: ChargeRecord, options?: { refund?: boolean }) {
  return retryOnConflict(async () => {
    const plan = await planRefund(deps, record, options);
    await transact(deps, plan.parts);
    return plan.payStatus;
  });
}

const wallets = async (clientId: string) => ({
  credits: (await readWallet(deps, walletKeys.credits(clientId, CI, product.id))).balance,
  money: (await readWallet(deps, walletKeys.money(clientId, CI))).balance,
});

describe('a refund mirrors its charge, for every pay option', () => {
  it.each<[PayOption, string]>([
    ['credits', 'credit_debit'],
    ['balance', 'money_debit'],
    ['invoice', 'invoice'],
  ])('%s: the wallet is back where it was and the booking nets to zero in the ledger', async (payOption, chargeKind) => {
    const clientId = await newClient(deps, { invoiceEnabled: true });
    await topUpCredits(deps, clientId, CI, product, 3);
    await topUpMoney(deps, clientId, CI, 10_000);
    const before = await wallets(clientId);

    const record = await charge(clientId, payOption);
    expect(await wallets(clientId)).not.toEqual(payOption === 'invoice' ? {} : before);
    expect(await refund(record)).toBe('refunded');

    expect(await wallets(clientId)).toEqual(before);
    const entries = (await ledgerOf(deps, clientId, CI)).filter((e) => e.booking_id === record.booking_id);
    expect(entries.map((e) => e.kind).sort()).toEqual([chargeKind, 'refund'].sort());
    expect(entries.reduce((sum, e) => sum + (e.kind === 'invoice' ? e.amount : 0) + (e.kind === 'refund' && payOption === 'invoice' ? e.amount : 0), 0)).toBe(
      0,
    );
    const [debit, credit] = [entries.find((e) => e.kind === chargeKind)!, entries.find((e) => e.kind === 'refund')!];
    expect(credit.amount).toBe(-debit.amount);
    expect(credit.unit).toBe(debit.unit);
    expect(credit.interview_type).toEqual({ id: product.id, name: product.name });
  });

  it('candidate_pays, unpaid: the payment link stops working and nothing else moves', async () => {
    const clientId = await newClient(deps);
    const record = await charge(clientId, 'candidate_pays');
    expect(await refund(record)).toBe('pending');
    expect((await getPaymentRequest(deps, CI, record.payment_token!))?.status).toBe('cancelled');
    expect(await ledgerOf(deps, clientId, CI)).toEqual([]);
  });

  it('candidate_pays, paid: a refund is owed to the candidate (a pending ledger entry and a task for the refunds worker); no wallet of the client moves', async () => {
    const clientId = await newClient(deps);
    const record = await charge(clientId, 'candidate_pays');
    await transact(deps, [part('payment request', paymentRequestPaid(deps, CI, record.payment_token!, 'pi_paid_1'))]);
    expect(await refund({ ...record, pay_status: 'completed' })).toBe('refunded');
    expect((await getPaymentRequest(deps, CI, record.payment_token!))?.status).toBe('refunded');
    const [entry, ...others] = await ledgerOf(deps, clientId, CI);
    expect(others).toEqual([]);
    expect(entry).toMatchObject({
      kind: 'refund',
      amount: -record.price.amount,
      unit: 'GBP',
      balance_after: null,
      pay_option: 'candidate_pays',
      provider_reference: 'pi_paid_1',
      refund_status: 'pending',
    });
    const tasks = await outboxPayloads<{ id: string; payment_intent: string; amount: number }>(deps, 'refund');
    expect(tasks).toContainEqual(expect.objectContaining({ id: entry!.id, payment_intent: 'pi_paid_1', amount: record.price.amount }));
    expect(await wallets(clientId)).toEqual({ credits: 0, money: 0 });
  });

  it('keeps what was paid when the refund is waived (late cancellation, no-show)', async () => {
    const clientId = await newClient(deps);
    await topUpCredits(deps, clientId, CI, product, 1);
    const record = await charge(clientId, 'credits');
    expect(await refund(record, { refund: false })).toBe('completed');
    expect((await wallets(clientId)).credits).toBe(0);
  });
});

describe('payment requests with a deadline', () => {
  it('take payment before the deadline and refuse it after, with no sweep involved', async () => {
    const clientId = await newClient(deps);
    const due = new Date(clock().getTime() + 3600_000).toISOString();
    const early = await charge(clientId, 'candidate_pays', undefined, due);
    const late = await charge(clientId, 'candidate_pays', undefined, due);
    await transact(deps, [part('payment request', paymentRequestPaid(deps, CI, early.payment_token!, 'prov_early'))]);
    clock.advance(3600);
    await expect(transact(deps, [part('payment request', paymentRequestPaid(deps, CI, late.payment_token!, 'prov_late'))])).rejects.toThrow(
      /payment request failed/,
    );
    expect((await getPaymentRequest(deps, CI, early.payment_token!))?.status).toBe('paid');
    expect((await getPaymentRequest(deps, CI, late.payment_token!))?.status).toBe('pending');
  });
});

describe('balance alerts: once per crossing, in the debit’s transaction', () => {
  /** Alerts are written as marker items here, so the test can count them. */
  const recordingPolicy = (clientId: string, lowAt: number): BalanceAlertPolicy => ({
    lowAt,
    announce: (alert) => putItem(deps, { pk: `TESTALERT#${clientId}`, sk: `${alert.level}#${alert.ledgerEntryId}`, ...alert }),
  });
  const alertsOf = async (clientId: string) => {
    const { Items = [] } = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `TESTALERT#${clientId}` },
        ConsistentRead: true,
      }),
    );
    return Items.map((i) => ({ level: i.level, balance: i.balance, threshold: i.threshold }));
  };

  it('K concurrent credit debits across both thresholds send exactly one low and one depleted; a top-up re-arms once', async () => {
    const clientId = await newClient(deps);
    await topUpCredits(deps, clientId, CI, product, 6);
    const policy = recordingPolicy(clientId, 2);
    const { ok, errors } = await settle(Array.from({ length: 6 }, () => charge(clientId, 'credits', policy)));
    expect([ok.length, errors]).toEqual([6, []]);
    expect((await wallets(clientId)).credits).toBe(0);
    expect((await alertsOf(clientId)).sort((a, b) => String(a.level).localeCompare(String(b.level)))).toEqual([
      { level: 'depleted', balance: 0, threshold: 0 },
      { level: 'low', balance: 2, threshold: 2 },
    ]);

    await topUpCredits(deps, clientId, CI, product, 4);
    await charge(clientId, 'credits', policy); // 4 → 3: above the threshold, nothing
    await charge(clientId, 'credits', policy); // 3 → 2: low again, once
    await charge(clientId, 'credits', policy); // 2 → 1: already sent
    expect((await alertsOf(clientId)).filter((a) => a.level === 'low')).toHaveLength(2);
    expect((await alertsOf(clientId)).filter((a) => a.level === 'depleted')).toHaveLength(1);
  });

  it('one money debit that empties the balance sends low and depleted together', async () => {
    const clientId = await newClient(deps);
    await topUpMoney(deps, clientId, CI, 4000);
    await charge(clientId, 'balance', recordingPolicy(clientId, 3000));
    expect((await alertsOf(clientId)).map((a) => a.level).sort()).toEqual(['depleted', 'low']);
  });
});
