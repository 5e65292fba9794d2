import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clientItemGrants, clientKeys, createClient, setFamilyAccess } from '../../../functions/core/access/clients.js';
import { countRequest } from '../../../functions/core/access/rate-limit.js';
import type { FamilyId } from '../../../functions/core/platform/families.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { testDeps } from '../../support/env.js';

/** Portal v1 access, a flag on the client, around its deprecation date (2026-01-01 by default). */

let deps: Deps;
beforeAll(async () => {
  deps = await testDeps();
});
const at = (iso: string): Deps => ({ ...deps, clock: () => new Date(iso) });
const BEFORE = '2025-12-31T23:59:59Z';
const AFTER = '2026-01-01T00:00:00Z';
/** Access as a request's authentication decides it: on the access record its count returns. */
const hasFamilyAccess = async (d: Deps, clientId: string, family: FamilyId) => clientItemGrants((await countRequest(d, clientId, family)).record, family);
const newClient = async (when: string) => (await createClient(at(when), { name: `Agency ${when}` })).client.clientId;

it('a client made before the deprecation has portal v1; one made from it on has not', async () => {
  expect(await hasFamilyAccess(deps, await newClient(BEFORE), 'portal-v1')).toBe(true);
  expect(await hasFamilyAccess(deps, await newClient(AFTER), 'portal-v1')).toBe(false);
  // Other families are not given per client.
  expect(await hasFamilyAccess(deps, await newClient(AFTER), 'portal-v2')).toBe(true);
});

it('a client stored before the flag existed (and before access records) keeps portal v1', async () => {
  const clientId = await newClient(AFTER);
  await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: clientKeys.item(clientId), UpdateExpression: 'REMOVE portal_v1_access' }));
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: clientKeys.access(clientId) }));
  expect(await hasFamilyAccess(deps, clientId, 'portal-v1')).toBe(true);
});

it('is given only before the deprecation, and taken away at any time', async () => {
  const clientId = await newClient(AFTER);
  await expect(setFamilyAccess(at(AFTER), clientId, 'portal-v1', true)).rejects.toMatchObject({ code: 'invalid-state' });
  expect(await hasFamilyAccess(deps, clientId, 'portal-v1')).toBe(false);
  await setFamilyAccess(at(BEFORE), clientId, 'portal-v1', true);
  expect(await hasFamilyAccess(deps, clientId, 'portal-v1')).toBe(true);
  await setFamilyAccess(at('2027-01-01T00:00:00Z'), clientId, 'portal-v1', false);
  expect(await hasFamilyAccess(deps, clientId, 'portal-v1')).toBe(false);
  await expect(setFamilyAccess(at(BEFORE), 'cl_nobody', 'portal-v1', true)).rejects.toMatchObject({ code: 'not-found' });
  await expect(setFamilyAccess(at(BEFORE), clientId, 'portal-v2', true)).rejects.toMatchObject({ code: 'invalid-state' });
});
