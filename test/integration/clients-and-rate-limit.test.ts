import { createClient, getClient, listClients, rotateClientSecret, verifyClientCredentials } from '../../functions/core/access/clients.js';
import { setEntitlement } from '../../functions/core/access/account-settings.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import type { FamilyId } from '../../functions/core/platform/families.js';
import { seedDemoData } from '../../functions/core/demo-data.js';
import { countRequest } from '../../functions/core/access/rate-limit.js';
import { testClock, testDeps, type TestClock } from '../support/env.js';

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:05.000Z');
  deps = await testDeps({ clock, config: { rateLimitRequests: 3, rateLimitWindowSeconds: 60 } });
});

describe('client accounts', () => {
  it('refuses a second client with the same id', async () => {
    await createClient(deps, { name: 'First', clientId: 'cl_same' });
    await expect(createClient(deps, { name: 'Second', clientId: 'cl_same' })).rejects.toMatchObject({ code: 'client-exists' });
  });

  it('rotating the secret makes the old one fail and the new one work', async () => {
    const { client, clientSecret } = await createClient(deps, { name: 'Rotating Agency' });
    const newSecret = await rotateClientSecret(deps, client.clientId);
    await expect(verifyClientCredentials(deps, client.clientId, clientSecret)).rejects.toMatchObject({ code: 'invalid-credentials' });
    await expect(verifyClientCredentials(deps, client.clientId, newSecret)).resolves.toMatchObject({ name: 'Rotating Agency' });
  });

  it('rotating the secret of an unknown client is not-found', async () => {
    await expect(rotateClientSecret(deps, 'cl_missing')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('entitlements granted and withdrawn at the same moment all take effect', async () => {
    const { client } = await createClient(deps, { name: 'Entitled Agency' });
    const names = ['occupational_health', 'a_1', 'a_2', 'a_3', 'a_4', 'a_5'];
    await Promise.all(names.map((e) => setEntitlement(deps, client.clientId, e, true)));
    expect((await getClient(deps, client.clientId))!.entitlements.sort()).toEqual([...names].sort());
    await Promise.all(names.slice(1).map((e) => setEntitlement(deps, client.clientId, e, false)));
    expect((await getClient(deps, client.clientId))!.entitlements).toEqual(['occupational_health']);
    await expect(setEntitlement(deps, 'cl_missing', 'a_1', true)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('seeds the demo clients once, however often it runs', async () => {
    await Promise.all([seedDemoData(deps), seedDemoData(deps)]);
    await seedDemoData(deps);
    const demo = (await listClients(deps)).filter((c) => c.clientId.startsWith('demo-'));
    expect(demo.map((c) => [c.clientId, c.invoiceEnabled])).toEqual([
      ['demo-northwind', true],
      ['demo-riverside', false],
    ]);
  });
});

describe('rate limiting', () => {
  it('allows the limit per window, refuses the next, and starts again in the next window', async () => {
    await createClient(deps, { name: 'Busy Agency', clientId: 'cl_busy' });
    const consumeRequest = async (clientId: string, family: FamilyId) => (await countRequest(deps, clientId, family)).state;
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await consumeRequest('cl_busy', 'clinical-interview'));
    expect(states.map((s) => s.allowed)).toEqual([true, true, true, false]);
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0, 0]);
    expect(states[3]).toMatchObject({ limit: 3, resetSeconds: 55, windowSeconds: 60 });

    // Another family has its own budget.
    expect((await consumeRequest('cl_busy', 'portal-v2')).allowed).toBe(true);

    clock.advance(55);
    expect(await consumeRequest('cl_busy', 'clinical-interview')).toMatchObject({ allowed: true, remaining: 2 });
  });
});
