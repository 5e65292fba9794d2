import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { candidateKeys } from './portal-v2/candidates.js';
import { createTemplate, listTemplates } from './portal-v2/templates.js';
import {
  CLINICAL_FAMILY,
  createInterviewType,
  createInterviewer,
  loadCatalog,
  setAvailability,
  type AvailabilityWindow,
} from './clinical-interview/catalog.js';
import { createClient, getClient } from './access/clients.js';
import { isConditionalCheckFailed } from './platform/conditions.js';
import type { Deps } from './platform/deps.js';
import { isDomainError } from './platform/errors.js';
import { raiseCounter } from './platform/ids.js';
import { openDemoBalances } from './commerce/opening-balances.js';
import { seedDemoInvites, seedPracticalDemo } from './practical-training/demo.js';
import { seedVlsDemo } from './virtual-life-support/demo.js';
import { seedMonitoringDemo } from './registration-monitoring/demo.js';

/**
 * Demo data for the local stack: two clients (one invoicing), two interview
 * types, three interviewers with weekday availability, credits and money on
 * both clients, a reference form template and two candidates per client;
 * and the practical training catalogue, events and bookings (practical-training/demo.ts), and virtual life-support's (virtual-life-support/demo.ts). Fixed ids and credentials make it idempotent and let a
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

const DEMO_TEMPLATE = {
  id: 1,
  name: 'Standard clinical reference',
  description: 'For registered nurses and midwives: competence, reliability, conduct.',
  questions: [
    { id: 'clinical_competence', kind: 'rating' as const, label: 'Clinical competence', required: true, weight: 3 },
    { id: 'reliability', kind: 'rating' as const, label: 'Reliability and punctuality', required: true, weight: 2 },
    { id: 'communication', kind: 'rating' as const, label: 'Communication with patients and colleagues', required: true, weight: 2 },
    { id: 'teamwork', kind: 'rating' as const, label: 'Teamwork', required: true, weight: 1 },
    { id: 'safeguarding', kind: 'text' as const, label: 'Are you aware of any safeguarding or fitness-to-practise concerns?', required: true },
    { id: 'reemploy', kind: 'text' as const, label: 'Would you employ this person again? Why?', required: false },
  ],
};

const DEMO_CANDIDATES = [
  { id: 1, client: 'demo-northwind', first_name: 'Ada', last_name: 'Nightingale', email: 'ada.nightingale@example.org', phone: '+447700900101' },
  { id: 2, client: 'demo-northwind', first_name: 'Mary', last_name: 'Seacole', email: 'mary.seacole@example.org', phone: '+447700900102' },
  { id: 3, client: 'demo-riverside', first_name: 'Edith', last_name: 'Cavell', email: 'edith.cavell@example.org', phone: '+447700900103' },
  { id: 4, client: 'demo-riverside', first_name: 'Ethel', last_name: 'Fenwick', email: 'ethel.fenwick@example.org', phone: '+447700900104' },
];

/** Each demo client's sent booking invite; its page is `<practical-training base URL>/invite/<invite_token>`. */
export const DEMO_INVITES = [
  {
    client_id: 'demo-northwind',
    invite_token: 'demo-invite-northwind-local-only',
    candidate: { first_name: 'Florence', last_name: 'Ward', email: 'florence.ward@example.org' },
  },
  {
    client_id: 'demo-riverside',
    invite_token: 'demo-invite-riverside-local-only',
    candidate: { first_name: 'Agnes', last_name: 'Hunt', email: 'agnes.hunt@example.org' },
  },
] as const;

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
      // The README's and the tests' portal v1 session (the flag cannot be given after its deprecation).
      familyAccess: { 'portal-v1': true },
    }).catch(ignoreExisting);
  }

  const existing = await loadCatalog(deps);
  for (const type of DEMO_TYPES) {
    if (!existing.types.some((t) => t.id === type.id)) await createInterviewType(deps, type).catch(ignoreExisting);
  }
  await raiseCounter(deps, CLINICAL_FAMILY, 'interview-type', Math.max(...DEMO_TYPES.map((t) => t.id)));
  for (const person of DEMO_INTERVIEWERS) {
    if (existing.interviewers.some((i) => i.id === person.id)) continue;
    await createInterviewer(deps, person.name, person.id).catch(ignoreExisting);
    await setAvailability(deps, person.id, person.availability);
  }
  await raiseCounter(deps, CLINICAL_FAMILY, 'interviewer', Math.max(...DEMO_INTERVIEWERS.map((i) => i.id)));

  if (!(await listTemplates(deps)).some((t) => t.id === DEMO_TEMPLATE.id)) await createTemplate(deps, DEMO_TEMPLATE).catch(ignoreExisting);
  await raiseCounter(deps, 'portal-v2', 'template', DEMO_TEMPLATE.id);
  for (const { client, ...candidate } of DEMO_CANDIDATES) {
    await deps.db
      .send(
        new PutCommand({
          TableName: deps.table,
          Item: {
            ...candidateKeys.candidate(client, candidate.id),
            entity: 'candidate',
            ...candidate,
            client_id: client,
            created_at: deps.clock().toISOString(),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .catch(ignoreExisting);
  }
  await raiseCounter(deps, 'portal-v2', 'candidate', Math.max(...DEMO_CANDIDATES.map((c) => c.id)));

  // Opening balances in the clinical interview family: only a wallet that was never written gets one.
  for (const demo of DEMO_CLIENTS) {
    await openDemoBalances(
      deps,
      demo.client_id,
      CLINICAL_FAMILY,
      DEMO_TYPES.map((t) => ({ kind: 'interview_type' as const, id: t.id, name: t.name })),
      DEMO_CREDITS,
      DEMO_MONEY_PENCE,
    );
  }
  await seedPracticalDemo(
    deps,
    DEMO_CLIENTS.map((c) => c.client_id),
  );
  await seedVlsDemo(
    deps,
    DEMO_CLIENTS.map((c) => c.client_id),
  );
  // After the practical training catalogue: the invites are to its first course.
  await seedDemoInvites(deps, DEMO_INVITES);
  await seedMonitoringDemo(
    deps,
    DEMO_CLIENTS.map((c) => c.client_id),
  );
  return DEMO_CLIENTS;
}
