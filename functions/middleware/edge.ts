import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { Operation } from '../api/routes/operation.js';
import { PATH_PARAMS, pathParamNames, type PathParamName } from '../api/schemas/params.js';
import { systemClock, type Clock } from '../core/platform/clock.js';
import { availabilityAt, deprecationHeaders, deprecationSchedules, type DeprecationSchedule } from '../core/platform/deprecation.js';
import { DomainError } from '../core/platform/errors.js';
import { FAMILIES, isFamilyId, type FamilyId } from '../core/platform/families.js';
import { correlationId, withCorrelationId } from '../core/platform/correlation.js';
import { familyUrl } from '../core/platform/family-urls.js';
import type { RateLimitState } from '../core/access/rate-limit.js';
import type { AccessContext } from '../core/access/tokens.js';
import { createLogger, errorFields, type Logger } from './logger.js';
import { edgeProblem } from './problems.js';
import { environment } from '../core/platform/config.js';

/**
 * The edge every handler shares, with no table and no AWS SDK: request id,
 * logging, error rendering, the body limit, and shaping results for API
 * Gateway. Handlers that need no table (the docs) are built on this alone.
 */

export const MAX_BODY_BYTES = 64 * 1024;

/** Pages carry no script and load nothing from elsewhere. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Headers every answer carries, errors included: HTML
 * gets the page policy and no referrer; nothing is cached unless its handler
 * says so (the public OpenAPI document and docs assets), since nearly every
 * answer, PDFs too, holds an agency's or a candidate's data.
 */
export function securityHeaders(headers: Record<string, string>): Record<string, string> {
  const type = headers['content-type'] ?? '';
  const html = type.startsWith('text/html');
  return {
    'x-content-type-options': 'nosniff',
    ...(html ? { 'content-security-policy': PAGE_CSP, 'referrer-policy': 'no-referrer' } : {}),
    'cache-control': 'no-store',
    ...headers,
  };
}

export interface HttpResult {
  status: number;
  /** JSON, or a Buffer (a file: the handler sets its content type). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestState {
  requestId: string;
  family: FamilyId;
  startedAt: number;
  log: Logger;
  caller: AccessContext | null;
  rateLimit?: RateLimitState;
  /** The items `HandlerOptions.prefetch` named, in its order (undefined: absent). */
  prefetched?: (Record<string, unknown> | undefined)[];
}

export type Event = APIGatewayProxyEventV2 & { state?: RequestState };
export type Request = middy.Request<Event, APIGatewayProxyStructuredResultV2, Error, Context>;
export type Middleware = middy.MiddlewareObj<Event, APIGatewayProxyStructuredResultV2, Error, Context>;

const baseLogger = createLogger();

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  // IETF draft-ietf-httpapi-ratelimit-headers structured fields.
  return {
    'ratelimit-policy': `"default";q=${state.limit};w=${state.windowSeconds}`,
    ratelimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
  };
}

/**
 * Where this family is reached from outside: PUBLIC_ROOT_URL plus the family
 * prefix behind a custom domain (and locally), else the HTTP API's own URL.
 */
export function publicBaseUrl(event: APIGatewayProxyEventV2, family: FamilyId): string {
  const root = environment().PUBLIC_ROOT_URL;
  return root ? root.replace(/\/$/, '') + FAMILIES[family].prefix : `https://${event.requestContext.domainName}`;
}

/**
 * The family a request is for: an operation of one family knows it; a shared
 * operation learns it from the API's stage variable `family` (set by the
 * family's stack in the cloud and by the local server).
 */
export function familyOf(op: Pick<Operation, 'family'>, event: APIGatewayProxyEventV2): FamilyId {
  if (op.family) return op.family;
  const family = event.stageVariables?.family;
  if (!isFamilyId(family)) throw new Error(`The API has no valid stage variable "family" (got ${JSON.stringify(family)})`);
  return family;
}

/** Read once at cold start: a schedule that makes no sense stops the function here, not on a request. */
const DEPRECATIONS = new Map(deprecationSchedules().map((s) => [s.family, s]));

type EdgeOperation = Pick<Operation, 'family' | 'path' | 'successor' | 'servedAfterSunset'>;

/** The answer's Deprecation, Sunset and Link headers, for a family that is deprecated. */
function deprecationOf(schedule: DeprecationSchedule, op: EdgeOperation, event: APIGatewayProxyEventV2) {
  const successorBase = schedule.successor && familyUrl(schedule.successor);
  return deprecationHeaders(schedule, {
    docs: `${publicBaseUrl(event, schedule.family)}/docs`,
    successor: successorBase && successorBase + (op.successor ?? ''),
  });
}

/**
 * After the sunset and inside a brownout window a deprecated family answers
 * 410 before anything else (authentication included): never 429 or 503,
 * which clients retry quietly. Its documentation stays up for migration.
 */
function refuseIfGone(schedule: DeprecationSchedule, op: EdgeOperation, now: Date, event: APIGatewayProxyEventV2): void {
  const availability = availabilityAt(schedule, now);
  if (availability.open || op.servedAfterSunset) return;
  const successor = schedule.successor && familyUrl(schedule.successor);
  throw edgeProblem(
    'api-sunset',
    availability.reason === 'sunset'
      ? `This API was switched off on ${schedule.sunsetAt.toUTCString()}; use its successor`
      : `This API is deprecated and switched off for a brownout until ${availability.brownoutEndsAt!.toISOString()}; it is switched off for good on ${schedule.sunsetAt.toUTCString()}`,
    {
      sunset: schedule.sunsetAt.toISOString(),
      successor: successor ? successor + (op.successor ?? '') : null,
      brownout_ends_at: availability.reason === 'brownout' ? availability.brownoutEndsAt!.toISOString() : null,
      docs: `${publicBaseUrl(event, schedule.family)}/docs`,
    },
  );
}

/** Capability tokens in paths: logged by their first 6 characters only. */
const SECRET_PARAMS = new Set<string>(['token', 'holdHash']);

/** The path as it may be logged: secret path parameters cut to their first 6 characters. */
export function loggablePath(op: Pick<Operation, 'path'>, event: APIGatewayProxyEventV2): string {
  const params = event.pathParameters ?? {};
  const names = pathParamNames(op.path);
  if (!names.some((n) => SECRET_PARAMS.has(n))) return event.rawPath;
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(params[name] ?? '');
    return SECRET_PARAMS.has(name) ? `${value.slice(0, 6)}…` : encodeURIComponent(value);
  });
}

/**
 * The path parameters, each checked by its schema. A value that fails names
 * nothing that exists: 404, never 500.
 */
export function parsePathParams(op: Pick<Operation, 'path'>, event: APIGatewayProxyEventV2): Record<string, never> {
  const raw = event.pathParameters ?? {};
  const parsed: Record<string, unknown> = {};
  for (const name of pathParamNames(op.path)) {
    const result = v.safeParse(PATH_PARAMS[name as PathParamName], raw[name]);
    if (!result.success) throw new DomainError('not-found', 'Nothing is found at this address');
    parsed[name] = result.output;
  }
  return parsed as Record<string, never>;
}

/**
 * The first middleware of every HTTP handler: a request id and a logger on the
 * way in; on the way out the request id header and one log line; and every
 * error rendered by `render` (problem+json for the API, a page for pages).
 * Used first, so its onError runs last and sees every failure.
 */
export function edgeMiddleware(
  op: EdgeOperation,
  render: (err: unknown) => { response: APIGatewayProxyStructuredResultV2; unexpected: boolean },
  clock: Clock = systemClock,
): Middleware {
  function finish(request: Request) {
    const state = request.event.state;
    const response = request.response ?? { statusCode: 204 };
    const deprecated = state && DEPRECATIONS.get(state.family);
    response.headers = {
      ...securityHeaders((response.headers ?? {}) as Record<string, string>),
      ...(state?.rateLimit ? rateLimitHeaders(state.rateLimit) : {}),
      ...(deprecated ? deprecationOf(deprecated, op, request.event) : {}),
      'x-request-id': state?.requestId ?? '',
    };
    request.response = response;
    state?.log.info('request', {
      method: request.event.requestContext?.http?.method,
      path: loggablePath(op, request.event),
      status: response.statusCode,
      duration_ms: state ? Date.now() - state.startedAt : undefined,
      client_id: state?.caller?.clientId,
    });
  }
  return {
    before: (request: Request) => {
      const requestId = correlationId() ?? (request.event.requestContext?.requestId || randomUUID());
      const family = familyOf(op, request.event);
      request.event.state = {
        requestId,
        family,
        startedAt: Date.now(),
        log: baseLogger.child({ request_id: requestId, family, route: request.event.routeKey }),
        caller: null,
      };
      const deprecated = DEPRECATIONS.get(family);
      if (deprecated) refuseIfGone(deprecated, op, clock(), request.event);
    },
    after: (request: Request) => finish(request),
    onError: (request: Request) => {
      const { response, unexpected } = render(request.error);
      if (unexpected) request.event.state?.log.error('unhandled error', errorFields(request.error));
      request.response = response;
      finish(request);
    },
  };
}

/**
 * Runs an HTTP handler with its request id as the correlation id
 * (core/platform/correlation.ts): the outbox items it writes carry the id to
 * the workers, and every log line names it.
 */
export const correlated =
  <R>(handler: (event: Event, context: Context) => Promise<R>) =>
  (event: Event, context: Context): Promise<R> =>
    withCorrelationId(event.requestContext?.requestId || randomUUID(), () => handler(event, context));

/** Bodies over `maxBytes` are 413: 64 KiB, or an upload operation's own limit. */
export function bodyLimitMiddleware(maxBytes = MAX_BODY_BYTES): Middleware {
  return {
    before: (request: Request) => {
      const body = request.event.body;
      if (body === undefined || body === '') return;
      const bytes = request.event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      if (bytes > maxBytes) {
        throw edgeProblem('payload-too-large', `Request bodies are limited to ${maxBytes} bytes`);
      }
    },
  };
}

export function toLambdaResult(result: HttpResult): APIGatewayProxyStructuredResultV2 {
  const headers = { ...result.headers };
  if (result.body === undefined) return { statusCode: result.status, headers };
  if (Buffer.isBuffer(result.body)) {
    return { statusCode: result.status, headers, body: result.body.toString('base64'), isBase64Encoded: true };
  }
  return {
    statusCode: result.status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(result.body),
  };
}
