import type { Deps } from '../../../functions/core/platform/deps.js';
import { createRole, deleteRole, listRoles, replaceRole } from '../../../functions/core/access/team-roles.js';
import { checkActingUser, createUser, deleteUser, listUsers, replaceUser, type TeamUserInput } from '../../../functions/core/access/team.js';
import { listAlerts } from '../../../functions/core/registration-monitoring/alerts.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { outboxPayloads } from '../../support/kit.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testDeps } from '../../support/env.js';

/** Team roles and users against DynamoDB Local: the last owner holds under concurrent requests; Acting-User; alert e-mails by severity. */

let deps: Deps;
const { newClient, newWorker, deliverAlertMails } = monitoringFixtures(() => deps);
beforeAll(async () => {
  deps = await testDeps();
});

const person = (n: string, role_id: string, more: Partial<TeamUserInput> = {}): TeamUserInput => ({
  name: n,
  email: `${n.toLowerCase()}@agency.example`,
  role_id,
  status: 'active',
  alert_min_severity: 'high',
  ...more,
});
const ownersOf = async (clientId: string) => (await listUsers(deps, clientId)).filter((u) => u.role_id === 'owner' && u.status === 'active');

it('the last owner cannot be removed, disabled or demoted, even by two concurrent requests', async () => {
  const clientId = await newClient();
  const [first] = await ownersOf(clientId);
  await expect(deleteUser(deps, clientId, first!.id, null)).rejects.toMatchObject({ code: 'last-owner' });
  await expect(replaceUser(deps, clientId, first!.id, person('Owner', 'owner', { email: first!.email, status: 'disabled' }), null)).rejects.toMatchObject({
    code: 'last-owner',
  });
  for (let round = 0; round < 5; round++) {
    const [kept] = await ownersOf(clientId);
    const second = await createUser(deps, clientId, person(`Second${round}`, 'owner'), null);
    // One removes the first owner while the other demotes the second: only one may win.
    const results = await Promise.allSettled([
      deleteUser(deps, clientId, kept!.id, null),
      replaceUser(deps, clientId, second.id, person(`Second${round}`, 'viewer'), null),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'last-owner' });
    expect(await ownersOf(clientId)).toHaveLength(1);
  }
  // Two owners both removed at once: one stays.
  const [a] = await ownersOf(clientId);
  const b = await createUser(deps, clientId, person('Third', 'owner'), null);
  const both = await Promise.allSettled([deleteUser(deps, clientId, a!.id, null), deleteUser(deps, clientId, b.id, null)]);
  expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect(await ownersOf(clientId)).toHaveLength(1);
});

it('only an acting owner grants or changes an owner; an admin may not; the client itself (no Acting-User) may', async () => {
  const clientId = await newClient();
  const [owner] = await ownersOf(clientId);
  const admin = await createUser(deps, clientId, person('Admin', 'admin'), null);
  const asAdmin = { id: admin.id, role_id: 'admin' };
  const asOwner = { id: owner!.id, role_id: 'owner' };
  await expect(createUser(deps, clientId, person('Crown', 'owner'), asAdmin)).rejects.toMatchObject({ code: 'owner-required' });
  await expect(replaceUser(deps, clientId, owner!.id, person('Renamed', 'owner', { email: owner!.email }), asAdmin)).rejects.toMatchObject({
    code: 'owner-required',
  });
  const crowned = await createUser(deps, clientId, person('Crown', 'owner'), asOwner);
  expect(crowned.role_id).toBe('owner');
  await expect(createUser(deps, clientId, person('Crown', 'viewer'), null)).rejects.toMatchObject({ code: 'team-user-duplicate' });
  await expect(createUser(deps, clientId, person('Nobody', 'custom-999'), null)).rejects.toMatchObject({ code: 'invalid-field' });
  expect((await createUser(deps, clientId, person('Viewer', 'viewer'), asAdmin)).role_id).toBe('viewer');
});

it('Acting-User: an active user whose role holds the permission; unknown, foreign, malformed, disabled or unpermitted is refused alike', async () => {
  const clientId = await newClient();
  const other = await newClient();
  const viewer = await createUser(deps, clientId, person('Vera', 'viewer'), null);
  const stranger = await createUser(deps, other, person('Stan', 'admin'), null);
  expect(await checkActingUser(deps, clientId, undefined, 'workers:write')).toBeNull();
  expect(await checkActingUser(deps, clientId, String(viewer.id), 'workers:read')).toEqual({ id: viewer.id, role_id: 'viewer' });
  for (const header of [String(viewer.id), String(stranger.id), '999999', 'x1', '0']) {
    await expect(checkActingUser(deps, clientId, header, 'workers:write')).rejects.toMatchObject({ code: 'acting-user-not-permitted' });
  }
  await replaceUser(deps, clientId, viewer.id, person('Vera', 'viewer', { status: 'disabled' }), null);
  await expect(checkActingUser(deps, clientId, String(viewer.id), 'workers:read')).rejects.toMatchObject({ code: 'acting-user-not-permitted' });
});

it('custom roles: their users hold their permissions; a role in use is not deleted; built-in roles are read-only', async () => {
  const clientId = await newClient();
  const role = await createRole(deps, clientId, { name: 'Night coordinator', permissions: ['workers:read', 'alerts:acknowledge'] });
  const user = await createUser(deps, clientId, person('Nico', role.id), null);
  expect(await checkActingUser(deps, clientId, String(user.id), 'alerts:acknowledge')).toMatchObject({ id: user.id });
  await expect(checkActingUser(deps, clientId, String(user.id), 'workers:write')).rejects.toMatchObject({ code: 'acting-user-not-permitted' });
  await replaceRole(deps, clientId, role.id, { name: 'Night coordinator', permissions: ['workers:read', 'workers:write'] });
  expect(await checkActingUser(deps, clientId, String(user.id), 'workers:write')).toMatchObject({ id: user.id });
  expect((await listRoles(deps, clientId)).find((r) => r.id === role.id)).toMatchObject({ user_count: 1, built_in: false });
  await expect(deleteRole(deps, clientId, role.id)).rejects.toMatchObject({ code: 'role-in-use' });
  await expect(replaceRole(deps, clientId, 'viewer', { name: 'Mine', permissions: [] })).rejects.toMatchObject({ code: 'role-built-in' });
  await expect(deleteRole(deps, clientId, 'owner')).rejects.toMatchObject({ code: 'role-built-in' });
  await replaceUser(deps, clientId, user.id, person('Nico', 'viewer'), null);
  await deleteRole(deps, clientId, role.id);
  expect((await listRoles(deps, clientId)).map((r) => r.id)).toEqual(['owner', 'admin', 'compliance_manager', 'viewer', 'billing']);
});

it('alert e-mails go to active users who read alerts, by their minimum severity, marked simulated', async () => {
  const clientId = await newClient(); // its owner hears of high and above
  await createUser(deps, clientId, person('Medium', 'compliance_manager', { alert_min_severity: 'medium' }), null);
  await createUser(deps, clientId, person('Low', 'viewer', { alert_min_severity: 'low' }), null);
  await createUser(deps, clientId, person('Billing', 'billing', { alert_min_severity: 'low' }), null); // cannot read alerts
  await createUser(deps, clientId, person('Off', 'viewer', { alert_min_severity: 'low', status: 'disabled' }), null);
  await createUser(deps, clientId, person('Quiet', 'admin', { alert_min_severity: 'none' }), null);
  const mails = async () =>
    (await outboxPayloads<{ to: string; subject: string; text: string }>(deps, 'email')).filter(
      (m) => m.to.endsWith('@agency.example') || m.to === 'owner@example.org',
    );

  const expiring = await newWorker(clientId, 'nmc', '91A9010B'); // expires in 20 days: medium
  await checkWorker(deps, clientId, expiring.id, { trigger: 'manual' });
  await deliverAlertMails(clientId);
  const first = await mails();
  expect(first.map((m) => m.to).sort()).toEqual(['low@agency.example', 'medium@agency.example']);
  expect(first[0]!.subject).toBe('[SIMULATED] medium alert for Grace Adeyemi: registration.expiring');
  expect(first[0]!.text).toContain('SIMULATED');

  const lapsed = await newWorker(clientId, 'gmc', '9109002'); // critical
  await checkWorker(deps, clientId, lapsed.id, { trigger: 'manual' });
  await deliverAlertMails(clientId);
  const second = (await mails()).slice(first.length);
  expect(second.map((m) => m.to).sort()).toEqual(['low@agency.example', 'medium@agency.example', 'owner@example.org']);
  // A repeat bumps the alert silently: no e-mail.
  await checkWorker(deps, clientId, lapsed.id, { trigger: 'manual', fresh: true });
  await deliverAlertMails(clientId);
  expect(await mails()).toHaveLength(first.length + second.length);
});

it('alert e-mails reach every permitted user of a large team (page by page, in batches), once each however often the message is delivered', async () => {
  const clientId = await newClient(); // its owner hears of high and above
  const team = Array.from({ length: 120 }, (_, i) =>
    person(`Member${String(i).padStart(3, '0')}`, i % 10 === 9 ? 'billing' : 'viewer', { alert_min_severity: 'low' }),
  );
  for (const p of team) await createUser(deps, clientId, p, null);
  const lapsed = await newWorker(clientId, 'nmc', '92A9002B'); // critical
  await checkWorker(deps, clientId, lapsed.id, { trigger: 'manual' });
  // Delivered three times (SQS redelivers): each permitted user still gets one e-mail.
  await deliverAlertMails(clientId, 3);
  const [alert] = (await listAlerts(deps, clientId, { limit: 10 })).data;
  const mails = (await outboxPayloads<{ to: string; subject: string; text: string }>(deps, 'email')).filter((m) => m.text.includes(`Alert ${alert!.id}:`));
  const expected = ['owner@example.org', ...team.filter((p) => p.role_id === 'viewer').map((p) => p.email)];
  expect(expected.length).toBeGreaterThan(100);
  expect(mails.map((m) => m.to).sort()).toEqual(expected.sort());
  expect(new Set(mails.map((m) => m.subject))).toEqual(new Set(['[SIMULATED] critical alert for Grace Adeyemi: registration.status_changed']));
}, 60_000);
