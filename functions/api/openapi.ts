import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { EVENT_CATALOGUE } from '../core/events/catalogue.js';
import { FAMILIES, type FamilyId } from '../core/platform/families.js';
import { contractOf, SPEC_FIELDS, type ResponseContract } from './contracts/index.js';
import { HoldConflict, Problem } from './contracts/responses.js';
import { routesOf, type Route } from './routes/index.js';
import { schemaFor } from './routes/operation.js';
import { pathParamNames } from './schemas/params.js';

/**
 * One OpenAPI 3.1 document per family, built from the route table and the
 * valibot schemas the handlers validate with, so it cannot drift from them.
 * Every operation and field says whether the specification states it
 * (`x-contract: spec`) or the project decided it (`x-contract: project`).
 */

type Json = Record<string, any>;

function jsonSchema(schema: v.GenericSchema): Json {
  const { $schema, ...rest } = toJsonSchema(schema, { errorMode: 'ignore' }) as Json;
  void $schema;
  const spec = SPEC_FIELDS.get(schema);
  if (rest.properties) {
    for (const [name, property] of Object.entries(rest.properties as Record<string, Json>)) {
      property['x-contract'] = spec === 'all' || spec?.includes(name) ? 'spec' : 'project';
    }
  }
  return rest;
}

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

const PROBLEMS = new Set<v.GenericSchema>([Problem, HoldConflict]);

function success(response: ResponseContract, family: FamilyId): Json {
  if (response.content === 'application/pdf') return { description: response.description, content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };
  if (response.content === 'text/html') return { description: response.description, content: { 'text/html': { schema: { type: 'string' } } } };
  if (!response.item) return { description: response.description };
  let schema = jsonSchema(response.item);
  if (response.wrap === 'page') {
    schema = { type: 'object', properties: { data: { type: 'array', items: schema }, next_cursor: { type: ['string', 'null'] } }, required: ['data', 'next_cursor'], additionalProperties: false };
  } else if (response.wrap === 'single' && FAMILIES[family].envelope === 'data-message') {
    // The portal's envelope is the specification's: `data` and `message`.
    schema = { type: 'object', properties: { data: schema, message: { type: 'string', 'x-contract': 'spec' } }, required: ['data', 'message'], additionalProperties: false };
    schema.properties.data['x-contract'] = 'spec';
  }
  const type = PROBLEMS.has(response.item) ? 'application/problem+json' : 'application/json';
  return { description: response.description, content: { [type]: { schema } } };
}

/** Path parameters as clients should type them: ids are integers. */
const pathParamSchema = (name: string): Json => (name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string', pattern: '^[A-Za-z0-9._-]+$' });

function operation(route: Route): Json {
  const contract = contractOf(route);
  const body = schemaFor(route.body, route.family);
  const querySchema = schemaFor(route.query, route.family);
  const parameters: Json[] = pathParamNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: pathParamSchema(name) }));
  if (querySchema) {
    const query = jsonSchema(querySchema);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
      parameters.push({ name, in: 'query', required: (query.required ?? []).includes(name), schema });
    }
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the first completed answer is replayed for 24 hours for the same key and body.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      'x-contract': 'project',
    });
  }
  const responses: Json = {};
  for (const [status, response] of Object.entries(contract.responses)) {
    responses[status] = Number(status) >= 400 && response.item === Problem ? problem(response.description) : success(response, route.family);
  }
  const add = (status: number, description: string) => (responses[status] ??= problem(description));
  if (route.auth === 'bearer') {
    add(401, 'Missing, unknown, expired or revoked token (WWW-Authenticate: Bearer)');
    add(429, 'Too many requests (Retry-After, RateLimit, RateLimit-Policy)');
  }
  if (body) {
    add(400, 'Malformed JSON');
    add(413, 'Body over 64 KiB');
    add(415, 'Body not application/json');
  }
  if (body || querySchema) add(422, 'Validation failed, or a business rule refused the request (see `type`)');
  if (parameters.some((p) => p.in === 'path')) add(404, 'No such resource, or it belongs to another client');
  add(500, 'Internal error; nothing internal is revealed');

  return {
    operationId: route.operationId,
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    'x-contract': route.contract,
    tags: [route.path.split('/')[1] ?? 'default'],
    security: route.auth === 'bearer' ? [{ bearer: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body) } } } } : {}),
    responses,
  };
}

export function buildOpenApi(family: FamilyId, serverUrl: string): Json {
  const paths: Json = {};
  for (const route of routesOf(family)) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: FAMILIES[family].title,
      version: '1.0.0',
      description:
        'Errors are RFC 9457 problem+json. Fields and operations marked `x-contract: spec` are stated by the source specification; `x-contract: project` marks what this project decided (see design.md).',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An access token from POST /auth/token' } },
      schemas: {
        Problem: {
          ...jsonSchema(Problem),
          examples: [
            {
              type: '/problems/validation',
              title: 'Validation failed',
              status: 422,
              detail: 'The request has invalid fields',
              errors: [{ pointer: '/referees/0/referee_email', detail: 'Not a valid e-mail address' }],
            },
          ],
        },
      },
    },
    paths,
    webhooks: webhooksOf(family),
  };
}

/** What this family POSTs to webhook endpoints, one entry per kind of its event catalogue (signed per Standard Webhooks). */
function webhooksOf(family: FamilyId): Json {
  return Object.fromEntries(
    Object.entries(EVENT_CATALOGUE[family]).map(([kind, meaning]) => [
      kind,
      {
        post: {
          summary: kind,
          description: meaning,
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({ name, in: 'header', required: true, schema: { type: 'string' } })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: { type: { const: kind }, timestamp: { type: 'string', format: 'date-time' }, data: { description: 'The resource as the API returns it' } },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Received; any other answer (or none within timeout_seconds) is retried' } },
        },
      },
    ]),
  );
}
