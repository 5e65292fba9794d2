import { clientKeys } from '../access/clients.js';
import { gbp, type Money } from '../commerce/money.js';
import type { Deps } from '../platform/deps.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { wallClock } from '../platform/time.js';
import { part, putItem, updateItem, type Part } from '../platform/transact.js';
import type { Register } from './registers.js';
import type { Trigger } from './verifications.js';

/**
 * Postpaid usage (decision 9): a completed check writes
 * its usage record, keyed by its verification id and put only if absent,
 * and moves the month's counters in the same transaction; a replay of that
 * transaction fails on the record and counts nothing twice.
 */

const CLIENT = TABLE_KEYS.client;
const FAMILY = 'registration-monitoring';
export const usageKeys = {
  record: (clientId: string, verificationId: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.usage, FAMILY, padId(verificationId)) }),
  month: (clientId: string, period: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.usageMonth, FAMILY, period) }),
};

/** A check's price (configuration, MONITORING_UNIT_PRICES), frozen on its record. */
export const chargeFor = (deps: Deps, register: Register): Money => gbp(deps.config.monitoringUnitPrices[register]);

export interface UsageCheck {
  verification_id: number;
  worker_id: number;
  register: Register;
  trigger: Trigger;
  checked_at: string;
  /** A completed check: billed. An error: counted as not billable. */
  billable: boolean;
}

/** The parts a check adds to its transaction: the usage record (billable only) and the month's counters. */
export function usageParts(deps: Deps, clientId: string, check: UsageCheck): Part[] {
  const { date } = wallClock(new Date(check.checked_at), deps.config.serviceTimeZone);
  const period = date.slice(0, 7);
  if (!check.billable) {
    return [part('usage-month', updateItem(deps, usageKeys.month(clientId, period), { set: { entity: 'usage-month', period }, add: { not_billable: 1 } }))];
  }
  const charge = chargeFor(deps, check.register);
  return [
    part(
      'usage',
      putItem(
        deps,
        { ...usageKeys.record(clientId, check.verification_id), entity: 'usage', client_id: clientId, ...check, period, charge },
        { expression: 'attribute_not_exists(pk)' },
      ),
    ),
    part(
      'usage-month',
      updateItem(deps, usageKeys.month(clientId, period), {
        set: { entity: 'usage-month', period },
        add: { billable: 1, amount: charge.amount, [`register_${check.register}`]: 1, [`trigger_${check.trigger}`]: 1, [`day_${date.slice(8, 10)}`]: 1 },
      }),
    ),
  ];
}
