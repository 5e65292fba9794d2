import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { FAMILIES, type FamilyId } from '../core/families.js';
import type { RateLimitState } from '../core/rate-limit.js';
import type { AccessContext } from '../core/tokens.js';
import { createLogger, errorFields, type Logger } from './logger.js';
import { HttpProblem } from './problems.js';

/**
 * The edge every handler shares, with no table and no AWS SDK: request id,
 * logging, error rendering, the body limit, and shaping results for API
 * Gateway. Handlers that need no table (the docs) are built on this alone.
 */

export const MAX_BODY_BYTES = 64 * 1024;

export interface HttpResult {
  status: number;
  /** JSON, or a Buffer (a file: the handler sets its content type). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestState {
  requestId: string;
  startedAt: number;
  log: Logger;
  caller: AccessContext | null;
  rateLimit?: RateLimitState;
}

export type Event = APIGatewayProxyEventV2 & { state?: RequestState };
export type Request = middy.Request<Event, APIGatewayProxyStructuredResultV2, Error, Context>;
export type Middleware = middy.MiddlewareObj<Event, APIGatewayProxyStructuredResultV2, Error, Context>;

const baseLogger = createLogger({ service: 'agency-api' });

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
  const root = process.env.PUBLIC_ROOT_URL;
  return root ? root.replace(/\/$/, '') + FAMILIES[family].prefix : `https://${event.requestContext.domainName}`;
}

/**
 * The first middleware of every HTTP handler: a request id and a logger on the
 * way in; on the way out the request id header and one log line; and every
 * error rendered by `render` (problem+json for the API, a page for pages).
 * Used first, so its onError runs last and sees every failure.
 */
export function edgeMiddleware(
  family: FamilyId,
  render: (err: unknown) => { response: APIGatewayProxyStructuredResultV2; unexpected: boolean },
): Middleware {
  function finish(request: Request) {
    const state = request.event.state;
    const response = request.response ?? { statusCode: 204 };
    response.headers = {
      ...response.headers,
      ...(state?.rateLimit ? rateLimitHeaders(state.rateLimit) : {}),
      'x-request-id': state?.requestId ?? '',
    };
    request.response = response;
    state?.log.info('request', {
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: response.statusCode,
      duration_ms: state ? Date.now() - state.startedAt : undefined,
      client_id: state?.caller?.clientId,
    });
  }
  return {
    before: (request: Request) => {
      const requestId = request.event.requestContext?.requestId || randomUUID();
      request.event.state = {
        requestId,
        startedAt: Date.now(),
        log: baseLogger.child({ request_id: requestId, family, route: request.event.routeKey }),
        caller: null,
      };
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

export function bodyLimitMiddleware(): Middleware {
  return {
    before: (request: Request) => {
      const body = request.event.body;
      if (body === undefined || body === '') return;
      const bytes = request.event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      if (bytes > MAX_BODY_BYTES) {
        throw new HttpProblem(413, 'payload-too-large', 'Payload too large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
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
