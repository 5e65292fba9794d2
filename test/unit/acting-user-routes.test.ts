import { buildOpenApi } from '../../functions/api/openapi.js';
import { actingUserOf, permissionFor } from '../../functions/api/routes/acting-user.js';
import { ROUTES, routeKey } from '../../functions/api/routes/index.js';
import { webhookOperations } from '../../functions/api/routes/shared.js';
import { PERMISSIONS } from '../../functions/core/access/roles.js';
import { FAMILIES, FAMILY_IDS } from '../../functions/core/platform/families.js';
import { declarationBySegment, GROUP_SEGMENTS } from '../../functions/core/portal-v2/groups/index.js';
import { isHealthSegment } from '../../functions/core/portal-v2/groups/names.js';

/**
 * Guard rail of team roles (decision 10): in a family with team
 * users (registration monitoring, portal v2) every operation a token reaches,
 * shared ones included, says what an `Acting-User` must be, so the HTTP
 * handler checks it before anything is read or written.
 */

const withTeamUsers = FAMILY_IDS.filter((f) => (FAMILIES[f] as { actingUser?: boolean }).actingUser === true);

it('knows the families with team users', () => {
  expect(withTeamUsers.sort()).toEqual(['portal-v2', 'registration-monitoring']);
});

it('fails on an operation of a family with team users that does not say what an acting user needs', () => {
  const missing = ROUTES.filter((r) => withTeamUsers.includes(r.family) && r.auth === 'bearer' && r.actingUser === undefined).map(
    (r) => `${r.family} ${routeKey(r)}`,
  );
  expect(missing).toEqual([]);
  // A public operation (token exchange, documents, link pages) has no account to act in.
  expect(ROUTES.filter((r) => r.auth === 'none' && r.actingUser !== undefined).map((r) => `${r.family} ${routeKey(r)}`)).toEqual([]);
});

it('names permissions of the vocabulary only', () => {
  for (const r of ROUTES) {
    if (r.actingUser === undefined || r.actingUser === 'team-user') continue;
    const permission = typeof r.actingUser === 'string' ? r.actingUser : r.actingUser.healthKinds;
    expect([routeKey(r), (PERMISSIONS as readonly string[]).includes(permission)]).toEqual([routeKey(r), true]);
  }
});

it('gives the webhook operations webhooks:manage in a family with team users, and no Acting-User in the others', () => {
  for (const family of FAMILY_IDS.filter((f) => FAMILIES[f].webhooks)) {
    for (const op of Object.values(webhookOperations)) {
      const route = ROUTES.find((r) => r.family === family && r.operationId === op.operationId)!;
      expect([family, op.operationId, route.actingUser]).toEqual([family, op.operationId, withTeamUsers.includes(family) ? 'webhooks:manage' : undefined]);
      expect(actingUserOf(op, family)).toBe(route.actingUser);
    }
  }
});

it('checks in the other families only what their own operations say (portal v1: a health read)', () => {
  const others = ROUTES.filter((r) => !withTeamUsers.includes(r.family) && r.actingUser !== undefined).map(
    (r) => `${r.family} ${routeKey(r)} ${JSON.stringify(r.actingUser)}`,
  );
  expect(others).toEqual(['portal-v1 GET /occupational-health-requests/{id} "health:read"']);
});

it("reads a request group's health rule by its path: health:read for a health kind, any active team user for another", () => {
  const rule = ROUTES.find((r) => r.family === 'portal-v2' && r.operationId === 'getGroupRequest')!.actingUser!;
  for (const segment of GROUP_SEGMENTS) {
    const health = declarationBySegment(segment)!.special_category === true;
    expect([segment, isHealthSegment(segment)]).toEqual([segment, health]);
    expect([segment, permissionFor(rule, { group: segment, id: 1 })]).toEqual([segment, health ? 'health:read' : null]);
  }
  expect(permissionFor('team-user', {})).toBeNull();
  expect(permissionFor('webhooks:manage', {})).toBe('webhooks:manage');
});

it('documents the Acting-User header and its 403 on exactly the operations that check it', () => {
  for (const family of FAMILY_IDS) {
    const doc = buildOpenApi(family, `https://api.example${FAMILIES[family].prefix}`) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, any> }>>;
    };
    for (const route of ROUTES.filter((r) => r.family === family)) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      if (!op) continue;
      const header = (op.parameters ?? []).some((p) => p.name === 'Acting-User');
      const refusal = JSON.stringify(op.responses['403'] ?? {}).includes('/problems/acting-user-not-permitted');
      expect([family, routeKey(route), header, refusal]).toEqual([family, routeKey(route), route.actingUser !== undefined, route.actingUser !== undefined]);
    }
  }
});
