import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createInterviewType, createInterviewer, loadCatalog, setAvailability, type AvailabilityWindow } from './catalog.js';
import { createClient, getClient } from './clients.js';
import { cancellationReasons, failedCondition, isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { isDomainError } from './errors.js';
import { raiseCounter } from './ids.js';
import { readWallet, walletChange, walletKeys } from './wallets.js';

/**
 * Demo data for the local stack: two clients (one invoicing), two interview
 * types, three interviewers with weekday availability, and credits and money
 * on both clients. Fixed ids and credentials make it idempotent and let a
 * restarted stack print the same credentials; that is also why seeding
 * refuses any table but a local one (see bin/ops.ts).
 */
export interface DemoClient {
  name: string;
  client_id: string;
  client_secret: string;
  invoice_enabled: boolean;
}

export const DEMO_CLIENTS: readonly DemoClient[] = [
  { name: 'Northwind Nursing Agency', client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only', invoice_enabled: true },
  { name: 'Riverside Care Staffing', client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only', invoice_enabled: false },
];

const DEMO_TYPES = [
  { id: 1, name: 'Registered Nurse clinical interview', durationMinutes: 45, priceMinor: 4500 },
  { id: 2, name: 'Mental Health Nurse clinical interview', durationMinutes: 60, priceMinor: 5500 },
];

const weekdays = (interviewTypeId: number, start: string, end: string, days = [1, 2, 3, 4, 5]): AvailabilityWindow[] =>
  days.map((weekday) => ({ interviewTypeId, weekday, start, end }));

const DEMO_INTERVIEWERS = [
  { id: 1, name: 'Dr Amara Okafor', availability: weekdays(1, '09:00', '12:45') },
  { id: 2, name: 'Sister Joan Whitfield', availability: [...weekdays(2, '09:00', '12:00'), ...weekdays(1, '13:00', '16:00')] },
  { id: 3, name: 'Charge Nurse Tom Reilly', availability: weekdays(1, '09:00', '17:00', [1, 2, 3, 4, 5, 6]) },
];

const DEMO_CREDITS = 10;
const DEMO_MONEY_PENCE = 50_000;

const ignoreExisting = (err: unknown) => {
  if (isConditionalCheckFailed(err) || (isDomainError(err) && err.code === 'client-exists')) return;
  throw err;
};

/** Creates whatever part of the demo data is missing; running it again (or twice at once) changes nothing. */
export async function seedDemoData(deps: Deps): Promise<readonly DemoClient[]> {
  for (const demo of DEMO_CLIENTS) {
    if (await getClient(deps, demo.client_id)) continue;
    await createClient(deps, {
      name: demo.name,
      clientId: demo.client_id,
      clientSecret: demo.client_secret,
      invoiceEnabled: demo.invoice_enabled,
    }).catch(ignoreExisting);
  }

  const existing = await loadCatalog(deps);
  for (const type of DEMO_TYPES) {
    if (!existing.types.some((t) => t.id === type.id)) await createInterviewType(deps, type).catch(ignoreExisting);
  }
  await raiseCounter(deps, 'interview-type', Math.max(...DEMO_TYPES.map((t) => t.id)));
  for (const person of DEMO_INTERVIEWERS) {
    if (existing.interviewers.some((i) => i.id === person.id)) continue;
    await createInterviewer(deps, person.name, person.id).catch(ignoreExisting);
    await setAvailability(deps, person.id, person.availability);
  }
  await raiseCounter(deps, 'interviewer', Math.max(...DEMO_INTERVIEWERS.map((i) => i.id)));

  // Opening balances: only a wallet that was never written gets one.
  for (const demo of DEMO_CLIENTS) {
    const opening = [
      ...DEMO_TYPES.map((type) => ({
        key: walletKeys.credits(demo.client_id, type.id),
        amount: DEMO_CREDITS,
        entry: { client_id: demo.client_id, kind: 'credit_topup' as const, unit: 'credits' as const, booking_id: null, interview_type: { id: type.id, name: type.name }, note: 'demo opening balance' },
      })),
      {
        key: walletKeys.money(demo.client_id),
        amount: DEMO_MONEY_PENCE,
        entry: { client_id: demo.client_id, kind: 'money_topup' as const, unit: 'GBP' as const, booking_id: null, interview_type: null, note: 'demo opening balance' },
      },
    ];
    for (const { key, amount, entry } of opening) {
      const wallet = await readWallet(deps, key);
      if (wallet.version !== 0) continue;
      await deps.db.send(new TransactWriteCommand({ TransactItems: walletChange(deps, wallet, amount, entry) })).catch((err) => {
        if (!failedCondition(cancellationReasons(err)?.[0])) throw err; // another seeder opened it
      });
    }
  }
  return DEMO_CLIENTS;
}
