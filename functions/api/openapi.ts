import * as v from 'valibot';
import { EVENT_CATALOGUE } from '../core/events/catalogue.js';
import { FAMILIES, familySpec, type FamilyId } from '../core/platform/families.js';
import { contractOf, type OperationContract } from './contracts/index.js';
import { COMMON_REFUSALS, exampleFor, PATH_PARAM_EXAMPLES, problemExample, type Refusal } from './contracts/examples.js';
import { HoldConflict, Problem, SeatHoldConflict, VlsHoldConflict } from './contracts/responses.js';

/** Response items that are problems (an error answer), with their own fields. */
const PROBLEM_ITEMS = new Set<v.GenericSchema>([Problem, HoldConflict, SeatHoldConflict, VlsHoldConflict]);
import { TAGS } from './contracts/tags.js';
import { pageForm } from './contracts/page-forms.js';
import { PROBLEM_TYPES, type ProblemCode } from './problem-types.js';
import { addAnswerHeaders, errorPage, isPage, rateLimitOf, usedHeaders } from './openapi-answers.js';
import { bodySchema, jsonSchema, objectEntries, parameter, successResponse, uploadBody, type Json } from './openapi-schemas.js';
import { routesOf, type Route } from './routes/index.js';
import { describeRule } from './routes/acting-user.js';
import { schemaFor } from './routes/operation.js';
import { issueFields } from './schemas/messages.js';
import { PATH_PARAMS, pathParamNames, type PathParamName } from './schemas/params.js';

/**
 * One OpenAPI 3.1 document per family, built from the route table and the
 * valibot schemas the handlers validate with, so it cannot drift from them.
 * Every operation and field says whether the specification states it
 * (`x-contract: spec`) or the project decided it (`x-contract: project`).
 */

/** A validation refusal is summed up by what its fields say. */
const summaryOf = (refusal: Refusal) => (refusal.extensions?.errors as { detail: string }[] | undefined)?.map((e) => e.detail).join('; ') ?? refusal.detail;

/** Problem examples by their code, as Swagger UI lists them for a status. */
const problemContent = (refusals: Refusal[], schema: Json = { $ref: '#/components/schemas/Problem' }) => ({
  'application/problem+json': {
    schema,
    examples: Object.fromEntries(refusals.map((r) => [r.code, { summary: summaryOf(r), value: problemExample(r) }])),
  },
});

/** The value of an example body or query, with `invalid` laid over it; the text a query carries. */
const asQuery = (query: Record<string, unknown>) => Object.fromEntries(Object.entries(query).map(([k, value]) => [k, String(value)]));

/**
 * The 422 the operation's own schema answers to its example request with
 * `invalid` laid over it: real messages, one per failing field.
 */
export function validationRefusal(schema: v.GenericSchema, value: unknown, where: 'body' | 'query'): Refusal {
  const result = v.safeParse(schema, value);
  if (result.success) throw new Error('The invalid example request passes validation');
  const errors = issueFields(result.issues, where);
  return { code: 'validation', detail: 'The request has invalid fields', extensions: { errors } };
}

function operation(route: Route): Json {
  const contract: OperationContract = contractOf(route);
  const request = contract.request ?? {};
  const body = schemaFor(route.body, route.family);
  const querySchema = schemaFor(route.query, route.family);
  const parameters: Json[] = pathParamNames(route.path).map((name) =>
    parameter(name, 'path', PATH_PARAMS[name as PathParamName], request.params?.[name] ?? PATH_PARAM_EXAMPLES[name]),
  );
  if (querySchema) {
    for (const [name, schema] of Object.entries(objectEntries(querySchema))) parameters.push(parameter(name, 'query', schema, request.query?.[name]));
  }
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the first completed answer is replayed for 24 hours for the same key and body.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      example: '5f0c7c1e-8a4b-4f2e-9d61-3b0f2a7c9e14',
      'x-contract': 'project',
    });
  }
  // What the route says an acting user must be (every bearer operation of a family with team users, shared ones included).
  const actingUser = route.actingUser === undefined ? undefined : describeRule(route.actingUser);
  if (actingUser) {
    parameters.push({
      name: 'Acting-User',
      in: 'header',
      required: false,
      description: `A team user's id: the request acts as that user, within their role (${actingUser.needs ? `needs ${actingUser.needs}` : 'any active team user'}; checked after a path's 404, before the body and before anything else is read or written), and is recorded as theirs. Without it, the account acts.`,
      schema: { type: 'integer', minimum: 1 },
      example: 3,
      'x-contract': 'project',
    });
  }
  for (const h of contract.headers ?? [])
    parameters.push({
      name: h.name,
      in: 'header',
      required: h.required,
      description: h.description,
      schema: { type: 'string' },
      example: h.example,
      'x-contract': route.contract,
    });
  const bodyExample = request.body === undefined ? undefined : exampleFor(request.body, route.family);

  const responses: Json = {};
  for (const [status, response] of Object.entries(contract.responses)) {
    const isProblem = Number(status) >= 400 && PROBLEM_ITEMS.has(response.item!);
    responses[status] = isProblem
      ? {
          description: response.description,
          content: problemContent([response.example as Refusal], response.item === Problem ? undefined : jsonSchema(response.item!)),
        }
      : successResponse(response, route.family);
  }
  const refusals = new Map<number, { description: string; refusals: Refusal[] }>();
  const add = (status: number, description: string, refusal: Refusal) => {
    if (responses[status]) return;
    const entry = refusals.get(status) ?? { description, refusals: [] };
    entry.refusals.push(refusal);
    refusals.set(status, entry);
  };
  if (route.auth === 'bearer') {
    add(401, 'Missing, unknown, expired or revoked token (WWW-Authenticate: Bearer)', COMMON_REFUSALS.invalidToken);
    if (familySpec(route.family).perClientAccess)
      add(403, 'The account has no access to this family (a flag the operator sets per client)', COMMON_REFUSALS.familyAccess);
  }
  const page = isPage(route, contract);
  const rateLimit = rateLimitOf(route, contract);
  if (rateLimit) add(429, rateLimit, COMMON_REFUSALS.rateLimited);
  if (page && route.method === 'POST') {
    add(413, 'Form over 64 KiB', COMMON_REFUSALS.tooLarge);
    add(415, 'Form not application/x-www-form-urlencoded', COMMON_REFUSALS.unsupportedMediaType);
  }
  if (body) {
    add(400, 'Malformed JSON', COMMON_REFUSALS.malformedJson);
    add(413, 'Body over 64 KiB', COMMON_REFUSALS.tooLarge);
    add(415, `Body not ${route.contentType ?? 'application/json'}`, COMMON_REFUSALS.unsupportedMediaType);
  }
  if (actingUser) {
    const { permission, needs } = actingUser;
    const refusal = permission
      ? { ...COMMON_REFUSALS.actingUser, detail: `The acting user may not do this (${permission})`, extensions: { permission } }
      : { code: COMMON_REFUSALS.actingUser.code, detail: 'The acting user is not an active team user of this account' };
    const description = `The Acting-User may not do this: not an active team user of the account${needs ? `, or outside their role (needs ${needs})` : ''}`;
    // An operation whose contract states its own 403 (an entitlement) answers this one too: one more example of it.
    const stated = responses[403] as { description: string; content: Record<string, { examples: Record<string, unknown> }> } | undefined;
    if (stated) {
      stated.description = `${stated.description}; or ${description[0]!.toLowerCase()}${description.slice(1)}`;
      Object.assign(stated.content['application/problem+json']!.examples, problemContent([refusal])['application/problem+json'].examples);
    } else add(403, description, refusal);
  }
  if (route.upload) {
    add(413, `File over ${route.upload.maxBytes} bytes`, COMMON_REFUSALS.tooLarge);
    add(415, `Body not ${route.upload.types.join(' or ')}`, COMMON_REFUSALS.unsupportedMediaType);
  }
  const validation = 'Validation failed, or a business rule refused the request (see `type`)';
  if (body && bodyExample !== undefined && request.invalid)
    add(422, validation, validationRefusal(body, { ...(bodyExample as object), ...request.invalid }, 'body'));
  if (querySchema && request.query && request.invalid)
    add(422, validation, validationRefusal(querySchema, asQuery({ ...request.query, ...request.invalid }), 'query'));
  for (const refusal of contract.refusals ?? []) add(problemExample(refusal).status as number, validation, refusal);
  const deprecated = !!familySpec(route.family).deprecation;
  if (deprecated && !route.servedAfterSunset)
    add(410, 'Switched off: after the sunset, or in a brownout window (no Retry-After; use the successor)', COMMON_REFUSALS.apiSunset);
  if (parameters.some((p) => p.in === 'path')) add(404, page ? 'No such link' : 'No such resource, or it belongs to another client', COMMON_REFUSALS.notFound);
  add(500, 'Internal error; nothing internal is revealed', COMMON_REFUSALS.internal);
  for (const [status, { description, refusals: list }] of [...refusals].sort(([a], [b]) => a - b)) {
    // A page answers its errors as pages, with the status.
    responses[status] = page ? errorPage(description, PROBLEM_TYPES[list[0]!.code as ProblemCode].title) : { description, content: problemContent(list) };
  }
  addAnswerHeaders(route, responses);

  return {
    operationId: route.operationId,
    summary: contract.summary,
    description: contract.description,
    'x-contract': route.contract,
    ...(deprecated ? { deprecated: true } : {}),
    tags: [contract.tag],
    security: route.auth === 'bearer' ? [{ bearer: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              [route.contentType ?? 'application/json']: {
                schema: bodySchema(route, request.patches ?? body),
                ...(bodyExample === undefined ? {} : { example: bodyExample }),
              },
            },
          },
        }
      : {}),
    ...(route.upload ? { requestBody: uploadBody(route.upload, bodyExample) } : {}),
    ...(page && route.method === 'POST'
      ? { requestBody: { required: false, content: { 'application/x-www-form-urlencoded': pageForm(route.family, route.operationId, route.contract) } } }
      : {}),
    responses,
  };
}

/** Where the family's bearer tokens come from: its own token operation, or its parent family's (decision 3). */
function tokenSource(family: FamilyId): string {
  const tokens = FAMILIES[family].tokens;
  return tokens === 'own'
    ? 'An access token from POST /auth/token'
    : `An access token of the ${FAMILIES[tokens.parent as FamilyId].title}, from its POST ${FAMILIES[tokens.parent as FamilyId].prefix}/auth/token`;
}

/** What a deprecated family's document says first. */
function deprecationNote(family: FamilyId): string {
  const deprecation = familySpec(family).deprecation;
  if (!deprecation) return '';
  const successor = deprecation.successor ? ` Use the ${FAMILIES[deprecation.successor as FamilyId].title} instead.` : '';
  return `**Deprecated.** Every answer carries \`Deprecation\`, \`Sunset\` and \`Link\` headers (RFC 9745, RFC 8594); the API is switched off for announced brownouts and for good at the sunset (by default ${deprecation.sunsetAt.slice(0, 10)}), answering 410 \`/problems/api-sunset\`.${successor} `;
}

export function buildOpenApi(family: FamilyId, serverUrl: string): Json {
  const paths: Json = {};
  const used = new Set<string>();
  for (const route of routesOf(family)) {
    paths[route.path] ??= {};
    const op = operation(route);
    used.add(op.tags[0]);
    paths[route.path][route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: FAMILIES[family].title,
      version: '1.0.0',
      description:
        deprecationNote(family) +
        'Errors are RFC 9457 problem+json. Fields and operations marked `x-contract: spec` are stated by the source specification; `x-contract: project` marks what this project decided where the specification is silent.',
      contact: { name: 'Interactive documentation', url: `${serverUrl}/docs` },
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(TAGS)
      .filter(([name]) => used.has(name))
      .map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: tokenSource(family) } },
      schemas: { Problem: jsonSchema(Problem) },
      headers: usedHeaders(paths),
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
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { const: kind },
                    timestamp: { type: 'string', format: 'date-time' },
                    data: { description: 'The resource as the API returns it' },
                  },
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
