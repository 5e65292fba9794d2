import { createClient, getClient } from './clients.js';
import type { Deps } from './deps.js';
import { isDomainError } from './errors.js';

/**
 * Demo data for the local stack. The credentials are fixed so that a restarted
 * stack prints the same ones; that is why seeding refuses any table but a local one
 * (see bin/ops.ts).
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

/** Creates whatever part of the demo data is missing; running it twice changes nothing. */
export async function seedDemoData(deps: Deps): Promise<readonly DemoClient[]> {
  for (const demo of DEMO_CLIENTS) {
    if (await getClient(deps, demo.client_id)) continue;
    try {
      await createClient(deps, {
        name: demo.name,
        clientId: demo.client_id,
        clientSecret: demo.client_secret,
        invoiceEnabled: demo.invoice_enabled,
      });
    } catch (err) {
      // Another seeder won the race: the client exists, which is all we wanted.
      if (!(isDomainError(err) && err.code === 'client-exists')) throw err;
    }
  }
  return DEMO_CLIENTS;
}
