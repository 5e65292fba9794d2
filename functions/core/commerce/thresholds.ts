import type { TransactItem } from '../platform/transact.js';

/**
 * Balance alerts: a wallet sends "low" once when a debit takes it from above
 * its threshold to at or below it, and "depleted" once when a debit takes it
 * to zero. Each is re-armed when the balance rises above its threshold again
 * (a top-up or a refund). The wallet's version makes a debit conditional on
 * the balance it read, so exactly one debit sees each crossing.
 */

export type AlertLevel = 'low' | 'depleted';

export interface BalanceAlertPolicy {
  /** The balance at or below which the wallet is low (credits, or minor units of money). */
  lowAt: number;
  /** The transaction item that announces an alert (an event put), written with the debit. */
  announce: (alert: { level: AlertLevel; balance: number; threshold: number; ledgerEntryId: string }) => TransactItem;
}

export interface Crossing {
  /** The alerts this move sends: none, one, or both when one debit crosses both thresholds. */
  alerts: AlertLevel[];
  armed: { low: boolean; depleted: boolean };
}

/** What a move from `before` to `after` does to the alerts: the pure rule. */
export function crossing(input: { before: number; after: number; lowAt: number; armed: { low: boolean; depleted: boolean } }): Crossing {
  const { before, after, lowAt } = input;
  const armed = { ...input.armed };
  const alerts: AlertLevel[] = [];
  if (after < before) {
    if (armed.low && before > lowAt && after <= lowAt) {
      alerts.push('low');
      armed.low = false;
    }
    if (armed.depleted && before > 0 && after <= 0) {
      alerts.push('depleted');
      armed.depleted = false;
    }
  } else {
    if (after > lowAt) armed.low = true;
    if (after > 0) armed.depleted = true;
  }
  return { alerts, armed };
}
