import { buildOpenApi } from '../../functions/api/openapi.js';
import { routesOf } from '../../functions/api/routes/index.js';
import { FAMILIES, FAMILY_IDS } from '../../functions/core/platform/families.js';
import { BookingPageForm } from '../../functions/http/clinical-interview/_booking-page.js';
import { BookingLinkForm } from '../../functions/http/practical-training/_booking-link-page.js';
import { InviteBookingForm } from '../../functions/http/shared/_invite-pages.js';
import { VlsLinkForm } from '../../functions/http/virtual-life-support/_booking-link.js';
import { DeliveryAddress } from '../../functions/api/schemas/virtual-life-support.js';

/** What a typed client needs of the documents beyond their shapes: closed vocabularies, the headers answers carry, pages as pages. */

const documents = Object.fromEntries(FAMILY_IDS.map((family) => [family, buildOpenApi(family, `https://api.example${FAMILIES[family].prefix}`)]));
const operations = (family: string) =>
  Object.entries(documents[family]!.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${family} ${method.toUpperCase()} ${path}`, op })),
  );

const STATUS_LIKE = /(^|_)(status|state)$|^(attendance|result|outcome)$/;
/** Status-like fields whose values are not one closed list, and why. */
const OPEN_VOCABULARY: Record<string, string> = {
  // One shape for the bulk operations' per-id answers: each operation's description lists its own results.
  'registration-monitoring /monitoring/bulk result': 'the bulk answer shape is shared; each bulk operation says its results',
  'registration-monitoring /alerts/acknowledge result': 'the bulk answer shape is shared; each bulk operation says its results',
};

function* statusFields(node: unknown, path: string): Generator<{ name: string; schema: any }> {
  if (Array.isArray(node)) for (const item of node) yield* statusFields(item, path);
  if (!node || typeof node !== 'object') return;
  const properties = (node as any).properties as Record<string, any> | undefined;
  if (properties) for (const [name, schema] of Object.entries(properties)) if (STATUS_LIKE.test(name)) yield { name, schema };
  for (const value of Object.values(node)) yield* statusFields(value, path);
}

const plainString = (schema: any): boolean =>
  (schema.type === 'string' && !schema.enum && schema.const === undefined && !schema.format) || (schema.anyOf ?? []).some(plainString);

it('no status-like field of an answer or a body is a plain string without an enum (the exceptions say why)', () => {
  const plain = new Set<string>();
  for (const family of FAMILY_IDS) {
    for (const [path, item] of Object.entries(documents[family]!.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item)) {
        for (const { name, schema } of statusFields(op, path)) if (plainString(schema)) plain.add(`${family} ${path} ${name}`);
      }
    }
  }
  expect([...plain].filter((key) => !OPEN_VOCABULARY[key])).toEqual([]);
});

const formOf = (family: string, path: string) => documents[family]!.paths[path].post.requestBody.content['application/x-www-form-urlencoded'].schema;

it('documents the form each public page posts, with the fields the page checks', () => {
  const names = (entries: object) => Object.keys(entries).sort();
  expect(Object.keys(formOf('clinical-interview', '/book/{token}').properties).sort()).toEqual(names(BookingPageForm.entries));
  expect(Object.keys(formOf('practical-training', '/invite/{token}').properties).sort()).toEqual(names(InviteBookingForm.entries));
  expect(
    Object.keys(formOf('practical-training', '/book/{token}').properties)
      .filter((n) => n !== 'course_id')
      .sort(),
  ).toEqual(names(BookingLinkForm.entries));
  expect(
    Object.keys(formOf('virtual-life-support', '/book/{token}').properties)
      .filter((n) => n !== 'course_id')
      .sort(),
  ).toEqual(names({ ...VlsLinkForm.entries, ...DeliveryAddress.entries }));
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const op = documents[family]!.paths[route.path][route.method.toLowerCase()];
      if (route.auth !== 'none' || route.method !== 'POST' || !route.path.includes('{token}')) continue;
      expect([route.operationId, op.requestBody?.content['application/x-www-form-urlencoded']?.schema?.type]).toEqual([route.operationId, 'object']);
      // A page answers its errors as pages.
      for (const status of ['404', '415', '429', '500'])
        expect([route.operationId, status, Object.keys(op.responses[status].content)]).toEqual([route.operationId, status, ['text/html']]);
    }
  }
});

it('documents the headers answers carry', () => {
  for (const family of FAMILY_IDS) {
    const deprecated = 'deprecation' in FAMILIES[family];
    for (const { key, op } of operations(family)) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        if (deprecated) expect([key, status, headers]).toEqual([key, status, expect.arrayContaining(['Deprecation', 'Sunset', 'Link'])]);
        if (status === '429') expect([key, headers]).toEqual([key, expect.arrayContaining(['Retry-After'])]);
        if (status === '303') expect([key, headers]).toEqual([key, expect.arrayContaining(['Location'])]);
      }
    }
  }
});

it('documents a 429 on every operation a rate limit applies to: a token, a sign-in, a public link', () => {
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const limited = route.auth === 'bearer' || route.path === '/auth/token' || route.path === '/auth/refresh' || route.path.includes('{token}');
      const op = documents[family]!.paths[route.path][route.method.toLowerCase()];
      expect([route.operationId, route.method, !!op.responses['429']]).toEqual([route.operationId, route.method, limited]);
    }
  }
});

it('documents the worker merge patch field by field, and patterns that take what the server takes', () => {
  const patch = documents['registration-monitoring']!.paths['/workers/{id}'].patch.requestBody.content['application/merge-patch+json'].schema;
  expect(patch).toMatchObject({ type: 'object', additionalProperties: false });
  expect(patch.required).toBeUndefined();
  expect(patch.properties.phone.anyOf).toContainEqual({ type: 'null' });
  expect(patch.properties.registration.required).toBeUndefined();
  const find = (node: any): any => (node && typeof node === 'object' ? (node.properties?.postcode ?? Object.values(node).map(find).find(Boolean)) : undefined);
  const postcode = new RegExp(find(documents['virtual-life-support']!.paths['/bookings'].post.requestBody).pattern);
  for (const accepted of ['LS1 4AP', 'ls1 4ap', ' sw1a1aa ']) expect(postcode.test(accepted)).toBe(true);
  expect(postcode.test('12345')).toBe(false);
});
