import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { DomainErrorCode } from '../core/platform/errors.js';
import { isDomainError } from '../core/platform/errors.js';

/**
 * RFC 9457 problem details. The one place that decides which HTTP status and
 * problem type every failure becomes.
 */

/** One failing field: a JSON `pointer` into the body, or a query `parameter`, or a `header`. */
export type FieldError = ({ pointer: string } | { parameter: string } | { header: string }) & { detail: string };

/** Raised at the edge: the request is not what the operation accepts. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

export const validationProblem = (errors: FieldError[]) =>
  new HttpProblem(422, 'validation', 'Validation failed', 'The request has invalid fields', { errors });

export const DOMAIN_PROBLEMS: Record<DomainErrorCode, { status: number; title: string }> = {
  'invalid-credentials': { status: 401, title: 'Invalid client credentials' },
  'invalid-token': { status: 401, title: 'Invalid token' },
  'not-found': { status: 404, title: 'Not found' },
  'client-exists': { status: 409, title: 'Client already exists' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'invalid-catalog': { status: 422, title: 'Invalid catalogue change' },
  'hold-conflict': { status: 409, title: 'The client already has an active hold' },
  'hold-not-found': { status: 422, title: 'Hold not found' },
  'hold-expired': { status: 422, title: 'Hold expired' },
  'hold-used': { status: 422, title: 'Hold already used' },
  'slot-unavailable': { status: 422, title: 'Slot unavailable' },
  'insufficient-credits': { status: 422, title: 'Insufficient credits' },
  'insufficient-balance': { status: 422, title: 'Insufficient balance' },
  'invoice-disabled': { status: 422, title: 'Invoice payments are not enabled' },
  'idempotency-key-reuse': { status: 422, title: 'Idempotency key reused with a different request' },
  'idempotency-in-flight': { status: 409, title: 'A request with this idempotency key is in flight' },
  'invalid-cursor': { status: 422, title: 'Invalid cursor' },
  'invalid-state': { status: 409, title: 'Not possible in the current state' },
  'webhook-url-refused': { status: 422, title: 'Webhook URL refused' },
  forbidden: { status: 403, title: 'Forbidden' },
  'limit-reached': { status: 422, title: 'Limit reached' },
  'payment-window-closed': { status: 422, title: 'Too late for the candidate to pay' },
  'job-running': { status: 409, title: 'A job of this kind is already running' },
  'invalid-field': { status: 422, title: 'Validation failed' },
};

export function problemResponse(
  status: number,
  type: string,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', ...headers },
    body: JSON.stringify({ type: `/problems/${type}`, title, status, detail, ...extensions }),
  };
}

const JSON_PARSER = '@middy/http-json-body-parser';

/** Maps any thrown value to a problem response. Unknown errors become a bare 500: no internals leak. */
export function toProblemResponse(err: unknown): { response: APIGatewayProxyStructuredResultV2; unexpected: boolean } {
  if (err instanceof HttpProblem) {
    return { response: problemResponse(err.status, err.type, err.title, err.detail, err.extensions, err.headers), unexpected: false };
  }
  if (isDomainError(err) && err.code === 'invalid-field') {
    const problem = validationProblem([{ pointer: String(err.extensions.pointer), detail: err.message }]);
    return { response: problemResponse(problem.status, problem.type, problem.title, problem.detail, problem.extensions), unexpected: false };
  }
  if (isDomainError(err)) {
    const { status, title } = DOMAIN_PROBLEMS[err.code];
    const { retry_after_seconds: retryAfter, ...extensions } = err.extensions;
    const headers: Record<string, string> = {
      ...(err.code === 'invalid-token' ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
      ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
    };
    return { response: problemResponse(status, err.code, title, err.message, extensions, headers), unexpected: false };
  }
  const e = err as { statusCode?: number; cause?: { package?: string } };
  if (e?.cause?.package === JSON_PARSER && e.statusCode === 415) {
    return {
      response: problemResponse(415, 'unsupported-media-type', 'Unsupported media type', 'Send the body as application/json'),
      unexpected: false,
    };
  }
  if (e?.cause?.package === JSON_PARSER) {
    return {
      response: problemResponse(400, 'malformed-json', 'Malformed JSON', 'The request body is not valid JSON'),
      unexpected: false,
    };
  }
  return {
    response: problemResponse(500, 'internal', 'Internal server error', 'Something went wrong on our side; it has been logged'),
    unexpected: true,
  };
}
