import type { Deps } from '../platform/deps.js';
import { isDomainError } from '../platform/errors.js';
import { enableMonitoring } from './account.js';
import { professionOf, type Register } from './registers.js';
import { listImports, startImport } from './imports.js';
import { createUser } from '../access/team.js';
import { checkWorker } from './verify.js';
import { createWorker, DEFAULT_MONITORING, listWorkers } from './workers.js';

/**
 * The registration monitoring demo data: monitoring on
 * both demo clients, and on the first twelve workers (6 NMC, 4 HCPC with
 * `PYL` and `ODP`, 2 GMC): 4 that the simulated register knows as clean and
 * one for each of eight of its magic numbers. Seeding again changes nothing
 * (each worker's `external_ref` is unique). Each worker's first check runs,
 * so alerts, evidence and usage are there from the start; a compliance
 * manager and a viewer join the owner, and an import with two bad rows is queued.
 */

export const DEMO_OWNERS: Record<string, { name: string; email: string }> = {
  'demo-northwind': { name: 'Olivia Hart', email: 'olivia.hart@northwind.example' },
  'demo-riverside': { name: 'Rahul Mehta', email: 'rahul.mehta@riverside.example' },
};

const W = (ref: string, first_name: string, last_name: string, register: Register, number: string, job_role: string) => ({
  ref,
  first_name,
  last_name,
  register,
  number,
  job_role,
});

export const DEMO_WORKERS = [
  W('DEMO-01', 'Grace', 'Adeyemi', 'nmc', '12A9001B', 'Registered Nurse'),
  W('DEMO-02', 'Ada', 'Okafor', 'nmc', '15B9001C', 'Registered Nurse'),
  W('DEMO-03', 'Priya', 'Shah', 'hcpc', 'PYL9001', 'Practitioner Psychologist'),
  W('DEMO-04', 'Tom', 'Reilly', 'gmc', '7019001', 'Locum Doctor'),
  W('DEMO-05', 'Sean', 'Murphy', 'nmc', '21C9002D', 'Registered Nurse'),
  W('DEMO-06', 'Joan', 'Whitfield', 'nmc', '07D9005E', 'Registered Midwife'),
  W('DEMO-07', 'Kwame', 'Boateng', 'hcpc', 'ODP9006', 'Operating Department Practitioner'),
  W('DEMO-08', 'Helen', 'Park', 'gmc', '7019009', 'Locum Doctor'),
  W('DEMO-09', 'Mary', 'Seacole', 'nmc', '19E9010F', 'Mental Health Nurse'),
  W('DEMO-10', 'Lily', 'Chen', 'hcpc', 'PA9011', 'Paramedic'),
  W('DEMO-11', 'Ruth', 'Evans', 'nmc', '03F9013G', 'Registered Nurse'),
  W('DEMO-12', 'Omar', 'Haddad', 'hcpc', 'OT9015', 'Occupational Therapist'),
] as const;

export async function seedMonitoringDemo(deps: Deps, clientIds: readonly string[]): Promise<void> {
  for (const clientId of clientIds) {
    const owner = DEMO_OWNERS[clientId];
    if (owner) await enableMonitoring(deps, clientId, owner);
  }
  const [clientId] = clientIds;
  if (!clientId) return;
  for (const w of DEMO_WORKERS) {
    await createWorker(deps, clientId, {
      first_name: w.first_name,
      last_name: w.last_name,
      external_ref: w.ref,
      email: `${w.first_name}.${w.last_name}@example.org`.toLowerCase(),
      phone: null,
      job_role: w.job_role,
      registration: { register: w.register, number: w.number, profession: professionOf(w.register, w.number) },
      monitoring: DEFAULT_MONITORING,
    }).catch((err) => {
      if (!(isDomainError(err) && err.code === 'worker-duplicate')) throw err;
    });
  }
  const { data } = await listWorkers(deps, clientId, { limit: 100 });
  for (const w of data.filter((x) => x.outcome === 'unverified' && x.external_ref?.startsWith('DEMO-'))) {
    await checkWorker(deps, clientId, w.id, { trigger: 'scheduled' });
  }
  for (const user of DEMO_TEAM) {
    await createUser(deps, clientId, user, null).catch((err) => {
      if (!(isDomainError(err) && err.code === 'team-user-duplicate')) throw err;
    });
  }
  // One import with two bad rows; the jobs queue commits the rest once the stack runs.
  if ((await listImports(deps, clientId, { limit: 1 })).data.length === 0) {
    await startImport(deps, clientId, {
      bytes: Buffer.from(DEMO_IMPORT),
      name: 'demo-new-starters.csv',
      mode: 'upsert',
      dryRun: false,
      uploadedBy: null,
    }).catch((err) => {
      // A seeding that runs at the same time started it.
      if (!(isDomainError(err) && err.code === 'job-running')) throw err;
    });
  }
}

/** The demo client's team besides its owner: who acts with `Acting-User` in the README, and who is e-mailed about alerts. */
export const DEMO_TEAM = [
  { name: 'Priya Nair', email: 'priya.nair@northwind.example', role_id: 'compliance_manager', status: 'active', alert_min_severity: 'medium' },
  { name: 'Victor Lowe', email: 'victor.lowe@northwind.example', role_id: 'viewer', status: 'active', alert_min_severity: 'none' },
] as const;

const DEMO_IMPORT = [
  'first_name,last_name,register,registration_number,external_ref,email,job_role',
  'Amara,Osei,nmc,31G9001H,DEMO-13,amara.osei@example.org,Registered Nurse',
  'Daniel,Kerr,hcpc,PA9001,DEMO-14,daniel.kerr@example.org,Paramedic',
  'Fatima,Rahman,nmc,31G90,DEMO-15,fatima.rahman@example.org,Registered Nurse',
  'Noah,Bennett,gmc,7039001,DEMO-16,not-an-address,Locum Doctor',
  'Isla,Grant,gmc,7049001,DEMO-17,isla.grant@example.org,Locum Doctor',
].join('\n');
