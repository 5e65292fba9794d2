import spectralCore from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import * as v from 'valibot';
import { contractOf } from '../../functions/api/contracts/index.js';
import { exampleFor } from '../../functions/api/contracts/examples.js';
import { PROBLEM_TYPES } from '../../functions/api/problem-types.js';
import { envelope, page } from '../../functions/api/contracts/responses.js';
import { TAGS } from '../../functions/api/contracts/tags.js';
import { buildOpenApi, validationRefusal } from '../../functions/api/openapi.js';
import { routesOf } from '../../functions/api/routes/index.js';
import { schemaFor } from '../../functions/api/routes/operation.js';
import { PATH_PARAMS, type PathParamName } from '../../functions/api/schemas/params.js';
import { FAMILIES, FAMILY_IDS } from '../../functions/core/platform/families.js';
import { DomainError, type DomainErrorCode } from '../../functions/core/platform/errors.js';
import { fieldErrors } from '../../functions/middleware/http-handler.js';
import { DOMAIN_PROBLEMS, toProblemResponse, validationProblem } from '../../functions/middleware/problems.js';
import { checkedInTypes, generatedTypes } from '../support/typed-clients.js';

/** The OpenAPI documents as a reader and a client generator meet them. */

const { Spectral } = spectralCore;
const documents = Object.fromEntries(
  FAMILY_IDS.map((family) => [family, buildOpenApi(family, `https://api.northwind-care.example${FAMILIES[family].prefix}`)]),
);
const operations = (family: string) =>
  Object.entries(documents[family]!.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${family} ${method.toUpperCase()} ${path}`, op })),
  );

describe.each(FAMILY_IDS)('the %s document', (family) => {
  it("passes Spectral's OpenAPI ruleset with nothing to report, parameter and tag descriptions included", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [[oas as never, 'recommended']],
      rules: { 'oas3-parameter-description': 'warn', 'openapi-tags': 'warn', 'tag-description': 'warn', 'operation-singular-tag': 'warn' },
    } as never);
    const results = await spectral.run(JSON.stringify(documents[family]));
    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 60_000);

  it('describes and tags every operation, with an example request and answer', () => {
    const missing: string[] = [];
    for (const { key, op } of operations(family)) {
      if (!op.description) missing.push(`${key}: description`);
      if (op.tags?.length !== 1 || !Object.hasOwn(TAGS, op.tags[0])) missing.push(`${key}: tag`);
      for (const p of op.parameters ?? []) if (p.example === undefined && p.required) missing.push(`${key}: example of ${p.name}`);
      if (op.requestBody && (Object.values(op.requestBody.content)[0] as any).example === undefined) missing.push(`${key}: example body`);
      const answers = Object.entries(op.responses as Record<string, any>).filter(([status]) => Number(status) < 300 && status !== '204' && !/^3/.test(status));
      for (const [status, response] of answers) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, any>)) {
          if (type !== 'application/pdf' && media.example === undefined) missing.push(`${key}: example ${status} ${type}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('shows for each problem status examples of that status (a 401 is not a 422)', () => {
    const wrong: string[] = [];
    for (const { key, op } of operations(family)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const media = response.content?.['application/problem+json'];
        if (!media) continue;
        const examples = Object.values((media.examples ?? {}) as Record<string, { value: any }>);
        if (examples.length === 0) wrong.push(`${key} ${status}: no example`);
        for (const { value } of examples) if (value.status !== Number(status)) wrong.push(`${key} ${status}: example of ${value.status} ${value.type}`);
      }
    }
    expect(wrong).toEqual([]);
    const clinical401 = documents['clinical-interview']!.paths['/bookings/{id}'].get.responses['401'].content['application/problem+json'].examples;
    expect(Object.values(clinical401).map((e: any) => e.value.type)).toEqual(['/problems/invalid-token']);
  });
});

it("each example request is one the operation's schemas accept, and each example answer parses with its response shape", () => {
  const refused: string[] = [];
  const check = (what: string, schema: v.GenericSchema, value: unknown) => {
    const result = v.safeParse(schema, value);
    if (!result.success) refused.push(`${what}: ${result.issues.map((i) => `${v.getDotPath(i)} ${i.message}`).join('; ')}`);
  };
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const contract = contractOf(route);
      const what = `${family} ${route.operationId}`;
      const body = schemaFor(route.body, family);
      const query = schemaFor(route.query, family);
      if (body && contract.request?.body !== undefined) check(`${what} body`, body, exampleFor(contract.request.body, family));
      if (query) check(`${what} query`, query, Object.fromEntries(Object.entries(contract.request?.query ?? {}).map(([k, value]) => [k, String(value)])));
      for (const [name, value] of Object.entries(contract.request?.params ?? {})) check(`${what} {${name}}`, PATH_PARAMS[name as PathParamName], String(value));
      const op = documents[family]!.paths[route.path][route.method.toLowerCase()];
      for (const [status, response] of Object.entries(contract.responses)) {
        if (!response.item || Number(status) >= 400) continue;
        const shape =
          response.wrap === 'page'
            ? page(response.item)
            : response.wrap === 'single' && FAMILIES[family].envelope === 'data-message'
              ? envelope(response.item)
              : response.item;
        check(`${what} ${status}`, shape, op.responses[status].content['application/json'].example);
      }
    }
  }
  expect(refused).toEqual([]);
});

it('problem examples carry the type, title and status the edge answers with', () => {
  const answered = (err: unknown) => JSON.parse(toProblemResponse(err).response.body as string);
  const http: Record<string, { status: number; title: string }> = {
    validation: answered(validationProblem([])),
    'malformed-json': answered({ statusCode: 400, cause: { package: '@middy/http-json-body-parser' } }),
    'unsupported-media-type': answered({ statusCode: 415, cause: { package: '@middy/http-json-body-parser' } }),
    internal: answered(new Error('boom')),
    'payload-too-large': { status: 413, title: 'Payload too large' },
  };
  for (const [code, documented] of Object.entries(PROBLEM_TYPES)) {
    const real = http[code] ?? answered(new DomainError(code as DomainErrorCode, 'x'));
    expect({ code, status: real.status, title: real.title }).toEqual({ code, ...documented });
    if (!http[code]) expect(DOMAIN_PROBLEMS[code as DomainErrorCode]).toEqual(documented);
  }
});

it("a 422 example lists what the edge itself answers to the operation's invalid example request", () => {
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const { request } = contractOf(route);
      const body = schemaFor(route.body, family);
      if (!body || !request?.invalid || request.body === undefined) continue;
      const value = { ...(exampleFor(request.body, family) as object), ...request.invalid };
      const result = v.safeParse(body, value);
      expect(result.success).toBe(false);
      expect(validationRefusal(body, value, 'body').extensions).toEqual({ errors: fieldErrors(result.issues!, 'body') });
    }
  }
});

it('documents integer query and path parameters as integers, so typed clients pass numbers', () => {
  const clinical = documents['clinical-interview']!.paths;
  expect(clinical['/bookings/{id}'].get.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1 });
  expect(clinical['/timeslots'].get.parameters.find((p: any) => p.name === 'interview_type_id').schema).toMatchObject({ type: 'integer', minimum: 1 });
  expect(clinical['/bookings'].get.parameters.find((p: any) => p.name === 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
  const portal = documents['portal-v2']!.paths;
  expect(portal['/reference-requests'].get.parameters.find((p: any) => p.name === 'candidate_id').schema).toMatchObject({ type: 'integer' });
  expect(clinical['/timeslots/hold/{holdHash}'].delete.parameters[0].schema.type).toBe('string');
});

it.each(FAMILY_IDS)(
  'the checked-in client types of %s are what openapi-typescript generates from the document now (npm run generate:clients)',
  async (family) => {
    expect(checkedInTypes(family) === (await generatedTypes(family))).toBe(true);
  },
  60_000,
);

/**
 * The operations the source specification names, family by family (its
 * family table, the clinical and portal inventories, the token, client and
 * webhook operations); paths are the project's. Each is `x-contract: spec`
 * in its family's document and every other operation is `project`.
 */
const SPEC_NAMED: Record<string, string[]> = (() => {
  const tokens = ['POST /auth/token', 'POST /auth/refresh', 'GET /auth/token', 'DELETE /auth/token'];
  const client = ['GET /client/booking-url', 'GET /client/balances', 'GET /client/wallet-transactions'];
  const webhooks = [
    'GET /webhooks',
    'POST /webhooks',
    'GET /webhooks/{id}',
    'PUT /webhooks/{id}',
    'DELETE /webhooks/{id}',
    'POST /webhooks/{id}/rotate-secret',
    'POST /webhooks/{id}/test',
  ];
  return {
    'clinical-interview': [
      ...tokens,
      ...client,
      ...webhooks,
      'GET /interview-types',
      'GET /timeslots',
      'POST /timeslots/hold',
      'DELETE /timeslots/hold/{holdHash}',
      'GET /bookings',
      'POST /bookings',
      'GET /bookings/{id}',
      'GET /bookings/{id}/interview-report',
    ],
    'portal-v2': [
      ...tokens,
      ...webhooks.filter((w) => w !== 'GET /webhooks/{id}'),
      'GET /webhooks/{id}/logs',
      'GET /templates',
      'GET /reference-requests',
      'POST /reference-requests',
      'GET /reference-requests/{id}',
      'POST /reference-requests/{id}/cancel',
      'POST /reference-requests/{id}/referees',
      'POST /reference-requests/{id}/reminders',
      'GET /references/{id}',
      'GET /references/{id}/pdf',
    ],
    'practical-training': [
      ...tokens,
      ...client,
      ...webhooks,
      'GET /client/account',
      'GET /courses',
      'GET /locations',
      'GET /training-events',
      'GET /training-events/{id}',
      'POST /seats/hold',
      'DELETE /seats/hold/{holdHash}',
      'POST /bookings',
      'GET /bookings',
      'GET /bookings/no-shows',
      'GET /bookings/{id}',
      'POST /bookings/{id}/cancel',
      'GET /bookings/{id}/certificate',
      'POST /booking-invites',
      'GET /booking-invites',
      'GET /booking-invites/{id}',
    ],
    'virtual-life-support': [
      ...tokens,
      ...client,
      ...webhooks,
      'GET /courses',
      'GET /timeslots',
      'POST /bookings',
      'GET /bookings',
      'GET /bookings/{id}',
      'GET /bookings/{id}/certificate',
    ],
    'registration-monitoring': [
      ...tokens,
      ...webhooks,
      'POST /workers',
      'GET /workers',
      'GET /workers/{id}',
      'PUT /workers/{id}',
      'PATCH /workers/{id}',
      'DELETE /workers/{id}',
      'POST /workers/{id}/verifications',
      'GET /workers/{id}/verifications',
      'POST /verification-jobs',
      'GET /verification-jobs/{id}',
      'GET /alerts',
      'GET /alerts/{id}',
      'POST /alerts/{id}/acknowledge',
      'POST /alerts/acknowledge',
      'GET /workers/{id}/monitoring',
      'PUT /workers/{id}/monitoring',
      'POST /monitoring/bulk',
      'GET /evidence',
      'GET /evidence/{id}',
      'GET /evidence/{id}/download',
      'GET /billing/usage',
      'GET /imports',
      'POST /imports',
      'GET /imports/{id}',
      'GET /team/roles',
      'POST /team/roles',
      'GET /team/roles/{roleId}',
      'PUT /team/roles/{roleId}',
      'DELETE /team/roles/{roleId}',
      'GET /team/users',
      'POST /team/users',
      'GET /team/users/{id}',
      'PUT /team/users/{id}',
      'DELETE /team/users/{id}',
    ],
    'portal-v1': [
      'GET /candidates',
      'POST /candidates',
      'GET /candidates/{id}',
      'GET /training-requests',
      'POST /training-requests',
      'GET /training-requests/{id}',
      'GET /occupational-health-requests',
      'POST /occupational-health-requests',
      'GET /occupational-health-requests/{id}',
      'GET /certificate-requests',
      'POST /certificate-requests',
      'GET /certificate-requests/{id}',
      'POST /webhooks',
      'DELETE /webhooks/{id}',
    ],
    services: ['GET /bookings'],
    'practical-training-legacy': ['GET /bookings/past', 'GET /bookings/upcoming', 'GET /bookings/search', 'GET /booking-links'],
  };
})();

it.each(FAMILY_IDS)('x-contract says spec on every operation the specification names in %s, and project on the rest', (family) => {
  const labelled = (label: string) =>
    operations(family)
      .filter(({ op }) => op['x-contract'] === label)
      .map(({ key }) => key.slice(family.length + 1))
      .sort();
  expect(labelled('spec')).toEqual([...SPEC_NAMED[family]!].sort());
  expect(labelled('project').filter((k) => SPEC_NAMED[family]!.includes(k))).toEqual([]);
  expect(labelled('spec').length + labelled('project').length).toBe(operations(family).length);
});
