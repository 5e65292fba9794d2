import type { Deps } from '../../../functions/core/platform/deps.js';
import { seedRegister } from '../../../functions/core/registration-monitoring/register-seed.js';
import { professionOf, registerOfNumber } from '../../../functions/core/registration-monitoring/registers.js';
import { showEntry } from '../../../functions/core/registration-monitoring/simulated-register.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { createWorker, DEFAULT_MONITORING } from '../../../functions/core/registration-monitoring/workers.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps } from '../../support/env.js';

/** `register seed`: plausible entries beside the magic numbers, the same each time, seeded once. */

let deps: Deps;
const { newClient } = monitoringFixtures(() => deps);
beforeAll(async () => {
  deps = await testDeps({ clock: testClock('2026-11-21T10:00:00.000Z') });
});

it('seeds valid, non-magic numbers of each register that the simulated register then knows by name; seeding again adds nothing', async () => {
  const first = await seedRegister(deps, 20);
  expect(first).toMatchObject({ created: 60, existing: 0 });
  for (const e of first.entries) expect(registerOfNumber(e.number)).toBe(e.register);
  expect(new Set(first.entries.map((e) => e.number)).size).toBe(60);
  expect(new Set(first.entries.map((e) => e.status))).toEqual(new Set(['registered', 'lapsed', 'registered_without_licence']));
  const again = await seedRegister(deps, 20);
  expect(again).toMatchObject({ created: 0, existing: 60 });
  expect(again.entries).toEqual(first.entries);

  const nurse = first.entries.find((e) => e.register === 'nmc' && e.status === 'registered' && !e.annotation)!;
  const shown = await showEntry(deps, 'nmc', nurse.number);
  expect(shown.answers_now).toMatchObject({
    name_on_register: nurse.name,
    registration_status: 'registered',
    expires_on: expect.stringMatching(/^20(2[6-9]|30)-/),
  });

  // A worker of that number and name checks clear; one of an unseeded number is not found.
  const clientId = await newClient();
  const [firstName, lastName] = nurse.name.split(' ') as [string, string];
  const worker = await createWorker(deps, clientId, {
    first_name: firstName,
    last_name: lastName,
    external_ref: null,
    email: null,
    phone: null,
    job_role: null,
    registration: { register: 'nmc', number: nurse.number, profession: professionOf('nmc', nurse.number) },
    monitoring: DEFAULT_MONITORING,
  });
  expect((await checkWorker(deps, clientId, worker.id, { trigger: 'manual' })).verification).toMatchObject({
    outcome: 'clear',
    result: { found: true, name_on_register: nurse.name, name_match: 'exact' },
  });
  const lapsed = first.entries.find((e) => e.register === 'hcpc' && e.status === 'lapsed')!;
  expect((await showEntry(deps, 'hcpc', lapsed.number)).answers_now).toMatchObject({ registration_status: 'lapsed' });
  expect((await showEntry(deps, 'gmc', '3999999')).answers_now).toEqual({ found: false });
});
