import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import type { BodyOf, Operation, QueryOf } from '../api/routes/operation.js';
import { refusesUnknownFields, schemaFor } from '../api/routes/operation.js';
import { issueFields } from '../api/schemas/messages.js';
import { unknownFields } from '../api/schemas/unknown-fields.js';
import type { PathParams } from '../api/schemas/params.js';
import type { ItemKey } from '../core/platform/db.js';
import { depsFromEnv, type Deps } from '../core/platform/deps.js';
import { FAMILIES, familySpec, tokenFamilyOf, type FamilyId } from '../core/platform/families.js';
import { tooManyRequests } from '../core/access/rate-limit.js';
import { recordDeprecatedCall } from '../core/access/deprecated-calls.js';
import { clientItemGrants } from '../core/access/clients.js';
import { DomainError } from '../core/platform/errors.js';
import { authenticateRequest, type AccessContext } from '../core/access/tokens.js';
import { checkActing, type Acting } from './acting-user.js';
import {
  bodyLimitMiddleware,
  correlated,
  edgeMiddleware,
  parsePathParams,
  publicBaseUrl,
  toLambdaResult,
  type Event,
  type HttpResult,
  type Middleware,
  type Request,
} from './edge.js';
import { errorFields, type Logger } from './logger.js';

export { MAX_BODY_BYTES, type Event, type HttpResult, type RequestState } from './edge.js';
import { edgeProblem, toProblemResponse, validationProblem, type FieldError } from './problems.js';

/**
 * Builds a Lambda handler for one route: authenticate, rate-limit, parse,
 * find the path's object, check `Acting-User`, validate, then call the
 * operation. Every failure on the way becomes a
 * problem+json response in one place (the edge middleware, used first so its
 * onError runs last).
 */

type Schema = v.GenericSchema;

export interface HttpInput<O extends Operation> {
  deps: Deps;
  log: Logger;
  requestId: string;
  family: FamilyId;
  caller: O['auth'] extends 'bearer' ? AccessContext : null;
  body: BodyOf<O>;
  /** An upload operation's raw body (`Operation.upload`). */
  upload: Buffer | undefined;
  query: QueryOf<O>;
  params: PathParams<O['path']>;
  headers: Record<string, string | undefined>;
  /** The caller's address, as API Gateway saw it. */
  sourceIp: string;
  /** This family's public base URL, for links in responses and e-mails. */
  baseUrl: string;
  /** The items of `HandlerOptions.prefetch`, in its order, as read with the token (undefined: absent). */
  prefetched: (Record<string, unknown> | undefined)[];
  /** The team user the request acts as (`Acting-User`, checked against the route's rule before the operation runs); null: the account. */
  acting: Acting | null;
}

export interface HandlerOptions<O extends Operation> {
  /**
   * Checks that the path names the caller's own object before the body is
   * validated and before `Acting-User` is: a probe of another client's
   * object is 404 whatever its body or acting user.
   */
  resource?: (input: Omit<HttpInput<O>, 'body' | 'acting'>) => Promise<unknown>;
  /**
   * Items the operation reads first, by key from the path (a hold to
   * release): read in the same batch as the caller's token, so the operation
   * starts with them instead of a round trip after authentication. Read
   * before the caller is known: the operation still checks whose they are.
   */
  prefetch?: (params: PathParams<O['path']>, family: FamilyId) => ItemKey[];
  deps?: Deps;
  /** Required by (and only by) an operation marked `idempotent`: ./idempotency.ts. */
  idempotency?: Idempotency;
}

/** Runs an operation under the caller's `Idempotency-Key`, if it sent one. */
export type Idempotency = (
  request: { deps: Deps; event: Event; clientId: string; family: FamilyId },
  run: () => Promise<APIGatewayProxyStructuredResultV2>,
) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * A handler's options: an idempotent operation's must give `idempotency`, and
 * no other may (so none is built without it, and no other carries its code).
 */
export type OptionsArg<O extends Operation> = O extends { idempotent: true }
  ? [options: HandlerOptions<O> & { idempotency: Idempotency }]
  : [options?: HandlerOptions<O> & { idempotency?: never }];

/** A single resource as the family answers it: bare, or in the portal's `{data, message}` envelope (FamilySpec). */
export const single = (family: FamilyId, resource: unknown, message: string): unknown =>
  FAMILIES[family].envelope === 'data-message' ? { data: resource, message } : resource;

/** A valibot failure as one entry per field, in plain English (../api/schemas/messages.ts). */
export const fieldErrors = (issues: v.BaseIssue<unknown>[], where: 'body' | 'query' = 'body'): FieldError[] => issueFields(issues, where);

/**
 * Parses with a schema; a failure is the API's 422 with one entry per field.
 * `closed`: a body field the schema does not know is refused at its pointer
 * too (a misspelt field is a mistake to tell, not to drop). Handlers use it
 * for a body they build (a merged PATCH).
 */
export function parseWith<S extends Schema>(schema: S, value: unknown, where: 'body' | 'query', closed = false): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  const unknown = closed ? unknownFields(schema, value) : [];
  if (!result.success || unknown.length) throw validationProblem([...(result.success ? [] : fieldErrors(result.issues, where)), ...unknown]);
  return result.output;
}

function bearerToken(event: APIGatewayProxyEventV2): string {
  const header = event.headers?.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    throw edgeProblem('invalid-token', 'Send Authorization: Bearer <access token>', {}, { 'www-authenticate': 'Bearer' });
  }
  return match[1];
}

export function httpHandler<const O extends Operation>(op: O, operation: (input: HttpInput<O>) => Promise<HttpResult>, ...[given]: OptionsArg<O>) {
  const options: HandlerOptions<O> = given ?? {};
  if (!!op.idempotent !== !!options.idempotency)
    throw new Error(`${op.operationId}: the idempotency option goes with, and only with, an operation marked idempotent`);
  const deps = options.deps ?? depsFromEnv();
  const edge = edgeMiddleware(op, toProblemResponse, deps.clock);
  const bodyLimit = bodyLimitMiddleware(op.upload?.maxBytes);

  // The JSON parser runs only when there is a body; a missing body is then a validation error, not a parse error.
  const jsonParser = httpJsonBodyParser();
  const jsonBody: Middleware = {
    before: (request: Request) => {
      const body = request.event.body;
      if (body === undefined || body === '') return;
      // An operation that names its media type takes that one only (a merge patch sent as application/json would mean something else).
      const type = (request.event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      // An upload stays as it came; its handler reads the bytes.
      if (op.upload) {
        if (!(op.upload.types as readonly string[]).includes(type))
          throw edgeProblem('unsupported-media-type', `Send the file as ${op.upload.types.join(' or ')}`);
        return;
      }
      if (op.contentType && type !== op.contentType) throw edgeProblem('unsupported-media-type', `Send the body as ${op.contentType}`);
      return jsonParser.before!(request) as unknown; // middy types its middlewares' results `any`
    },
  };

  // Parsed once a request: authentication's read-ahead and the operation take the same parameters.
  const parsed = new WeakMap<Event, Record<string, never>>();
  const paramsOf = (event: Event) => {
    let params = parsed.get(event);
    if (!params) parsed.set(event, (params = parsePathParams(op, event)));
    return params;
  };

  // A path that does not parse reads nothing ahead: the operation refuses it after authentication, as without prefetch.
  const prefetchKeys = (event: Event): ItemKey[] => {
    if (!options.prefetch) return [];
    try {
      return options.prefetch(paramsOf(event) as unknown as PathParams<O['path']>, event.state!.family);
    } catch {
      return [];
    }
  };

  const bearerAuth: Middleware = {
    before: async (request: Request) => {
      const state = request.event.state!;
      // A facade family takes its parent's tokens (decision 3); its requests count against its own limit.
      const prefetch = prefetchKeys(request.event);
      const { caller, rateLimit, client, prefetched } = await authenticateRequest(
        deps,
        bearerToken(request.event),
        tokenFamilyOf(state.family),
        state.family,
        prefetch,
      );
      state.caller = caller;
      state.prefetched = prefetched;
      state.log = state.log.child({ client_id: caller.clientId });
      // Who still calls a deprecated family: counted, never at the cost of the call.
      if (familySpec(state.family).deprecation) {
        await recordDeprecatedCall(deps, caller.clientId, state.family).catch((err) => state.log.error('deprecated call not recorded', errorFields(err)));
      }
      state.rateLimit = rateLimit;
      if (!state.rateLimit.allowed) throw tooManyRequests(state.rateLimit, 'requests');
      // A family given per client (portal v1): a client without it is refused whatever it asks.
      if (!clientItemGrants(client, state.family)) {
        throw new DomainError('forbidden', `This account has no access to the ${FAMILIES[state.family].title}`);
      }
    },
  };

  // Authentication before the body's media type and JSON: without a token the answer is 401, whatever was sent.
  const chain = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>().use(edge).use(bodyLimit);
  if (op.auth === 'bearer') chain.use(bearerAuth);
  chain.use(jsonBody);

  return correlated(
    chain.handler(async (event) => {
      const state = event.state!;
      const family = state.family;
      const querySchema = schemaFor(op.query, family);
      const common = {
        deps,
        log: state.log,
        requestId: state.requestId,
        family,
        caller: state.caller,
        query: querySchema ? parseWith(querySchema, event.queryStringParameters ?? {}, 'query') : undefined,
        params: paramsOf(event),
        headers: event.headers ?? {},
        sourceIp: event.requestContext.http.sourceIp,
        baseUrl: publicBaseUrl(event, family),
        prefetched: state.prefetched ?? [],
      } as unknown as Omit<HttpInput<O>, 'body' | 'acting'>;
      if (options.resource) await options.resource(common);
      // The route's Acting-User rule, before the body and before the operation reads or writes anything (./acting-user.ts).
      const acting = await checkActing(deps, op, { family, clientId: state.caller?.clientId, headers: common.headers, params: common.params });
      const bodySchema = schemaFor(op.body, family, common.params);
      const upload = op.upload && event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : undefined;
      const input = {
        ...common,
        acting,
        upload,
        body: bodySchema ? parseWith(bodySchema, event.body ?? undefined, 'body', refusesUnknownFields(op, family)) : undefined,
      } as HttpInput<O>;
      const run = async () => toLambdaResult(await operation(input));

      if (!options.idempotency || !state.caller) return run();
      return options.idempotency({ deps, event, clientId: state.caller.clientId, family }, run);
    }),
  );
}
