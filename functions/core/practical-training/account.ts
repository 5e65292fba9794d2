import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, getClient, type ClientAccount } from '../access/clients.js';
import type { ChargeRequest } from '../commerce/charges.js';
import { CURRENCY, gbp } from '../commerce/money.js';
import { eventPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { PRACTICAL_FAMILY } from './catalogue.js';

/**
 * The agency's account as this family shows it, and its balance alert
 * thresholds: credits per course
 * wallet, money in pence. Defaults: 2 credits, £50 (Twilio's $5, scaled to a course).
 */

export interface BalanceAlertSettings {
  credits_low_at: number;
  money_low_at: number;
}

export const DEFAULT_BALANCE_ALERTS: BalanceAlertSettings = { credits_low_at: 2, money_low_at: 5000 };

const settingsKey = (clientId: string) => ({ pk: clientKeys.partition(clientId), sk: key(TABLE_KEYS.client.sk.balanceAlerts, PRACTICAL_FAMILY) });

export async function balanceAlertSettings(deps: Deps, clientId: string): Promise<BalanceAlertSettings> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: settingsKey(clientId), ConsistentRead: true }));
  return {
    credits_low_at: Number(Item?.credits_low_at ?? DEFAULT_BALANCE_ALERTS.credits_low_at),
    money_low_at: Number(Item?.money_low_at ?? DEFAULT_BALANCE_ALERTS.money_low_at),
  };
}

/** Operator: sets either threshold; the other keeps its value. */
export async function setBalanceAlertSettings(deps: Deps, clientId: string, change: Partial<BalanceAlertSettings>): Promise<BalanceAlertSettings> {
  for (const [name, value] of Object.entries(change)) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new DomainError('invalid-state', `${name} must be a whole number, 0 or more`);
  }
  if (!(await getClient(deps, clientId))) throw new DomainError('not-found', `No client ${clientId}`);
  const next = { ...(await balanceAlertSettings(deps, clientId)), ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  await deps.db.send(
    new PutCommand({ TableName: deps.table, Item: { ...settingsKey(clientId), entity: 'balance-alerts', family: PRACTICAL_FAMILY, ...next } }),
  );
  return next;
}

/** The charge's alert policies: `credit_balance.*` for the course's credits, `money_balance.*` for money, each in the debit's transaction. */
export function balanceAlertPolicies(
  deps: Deps,
  clientId: string,
  settings: BalanceAlertSettings,
  course: { id: number; name: string; code: string },
): NonNullable<ChargeRequest['alerts']> {
  return {
    credits: {
      lowAt: settings.credits_low_at,
      announce: ({ level, balance, threshold, ledgerEntryId }) =>
        eventPut(deps, {
          family: PRACTICAL_FAMILY,
          type: `credit_balance.${level}`,
          client_id: clientId,
          data: { wallet: { unit: 'credits', course }, balance, threshold, ledger_entry_id: ledgerEntryId },
        }),
    },
    money: {
      lowAt: settings.money_low_at,
      announce: ({ level, balance, threshold, ledgerEntryId }) =>
        eventPut(deps, {
          family: PRACTICAL_FAMILY,
          type: `money_balance.${level}`,
          client_id: clientId,
          data: { wallet: { unit: CURRENCY, course: null }, balance: gbp(balance), threshold: gbp(threshold), ledger_entry_id: ledgerEntryId },
        }),
    },
  };
}

/** GET /client/account. */
export async function accountView(deps: Deps, client: ClientAccount) {
  const alerts = await balanceAlertSettings(deps, client.clientId);
  return {
    client_id: client.clientId,
    name: client.name,
    created_at: formatWithOffset(client.createdAt, deps.config.serviceTimeZone),
    invoice_enabled: client.invoiceEnabled,
    balance_alerts: { credits_low_at: alerts.credits_low_at, money_low_at: gbp(alerts.money_low_at) },
  };
}
