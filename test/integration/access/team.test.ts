import { createClient, getClient } from '../../../functions/core/access/clients.js';
import { checkActingUser, createTeam, createUser, listUsers, type TeamUserInput } from '../../../functions/core/access/team.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { enableMonitoring } from '../../../functions/core/registration-monitoring/account.js';
import { testDeps } from '../../support/env.js';

/** The account's team (decision 10) for a client without registration monitoring: made by the operator, checked for portal v2's permissions. */

let deps: Deps;
beforeAll(async () => {
  deps = await testDeps();
});

let n = 0;
const newPortalClient = async () => (await createClient(deps, { name: `Portal agency ${++n}` })).client.clientId;
const person = (name: string, role_id: string): TeamUserInput => ({
  name,
  email: `${name.toLowerCase()}@agency.example`,
  role_id,
  status: 'active',
  alert_min_severity: 'high',
});

it('a client without monitoring gets its team and first owner once; enabling monitoring later keeps that team', async () => {
  const clientId = await newPortalClient();
  const made = await createTeam(deps, clientId, { name: 'Olu Owner', email: 'Olu@Agency.example' });
  expect(made).toMatchObject({ created: true, owner: { role_id: 'owner', status: 'active', email: 'olu@agency.example' } });
  expect(await createTeam(deps, clientId, { name: 'Someone else', email: 'else@agency.example' })).toMatchObject({
    created: false,
    owner: { id: made.owner.id, name: 'Olu Owner' },
  });
  expect((await getClient(deps, clientId))!.monitoringEnabled).toBe(false);

  const owner = await enableMonitoring(deps, clientId, { name: 'Another', email: 'another@agency.example' });
  expect(owner.id).toBe(made.owner.id);
  expect((await getClient(deps, clientId))!.monitoringEnabled).toBe(true);
  expect(await listUsers(deps, clientId)).toHaveLength(1);
  await expect(createTeam(deps, 'cl_nobody', { name: 'X', email: 'x@agency.example' })).rejects.toMatchObject({ code: 'not-found' });
});

it('a user joins only a team that exists (made with its first owner)', async () => {
  const clientId = await newPortalClient();
  for (const role of ['viewer', 'owner']) {
    await expect(createUser(deps, clientId, person(`Early ${role}`, role), null)).rejects.toMatchObject({
      code: 'invalid-state',
      message: expect.stringContaining('team create'),
    });
  }
  expect(await listUsers(deps, clientId)).toEqual([]);
  await createTeam(deps, clientId, { name: 'Owner', email: 'owner@agency.example' });
  expect((await createUser(deps, clientId, person('Later', 'viewer'), null)).role_id).toBe('viewer');
});

it('requests:review and health:read: owner, admin and compliance manager hold them; viewer and billing do not', async () => {
  const clientId = await newPortalClient();
  const { owner } = await createTeam(deps, clientId, { name: 'Owner', email: 'owner@agency.example' });
  const users = {
    owner,
    admin: await createUser(deps, clientId, person('Admin', 'admin'), null),
    compliance: await createUser(deps, clientId, person('Compliance', 'compliance_manager'), null),
    viewer: await createUser(deps, clientId, person('Viewer', 'viewer'), null),
    billing: await createUser(deps, clientId, person('Billing', 'billing'), null),
  };
  for (const permission of ['requests:review', 'health:read'] as const) {
    for (const who of ['owner', 'admin', 'compliance'] as const) {
      expect(await checkActingUser(deps, clientId, String(users[who].id), permission)).toMatchObject({ id: users[who].id });
    }
    for (const who of ['viewer', 'billing'] as const) {
      await expect(checkActingUser(deps, clientId, String(users[who].id), permission)).rejects.toMatchObject({
        code: 'acting-user-not-permitted',
        extensions: { permission },
      });
    }
  }
  // Another account's user looks unknown.
  await expect(checkActingUser(deps, await newPortalClient(), String(users.owner.id), 'health:read')).rejects.toMatchObject({
    code: 'acting-user-not-permitted',
  });
});
