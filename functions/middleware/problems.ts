import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { DomainErrorCode } from '../core/platform/errors.js';
import { isDomainError } from '../core/platform/errors.js';
import { PROBLEM_TYPES, type ProblemCode } from '../api/problem-types.js';

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

export const validationProblem = (errors: FieldError[]) => edgeProblem('validation', 'The request has invalid fields', { errors });

/** The status and title of each domain error: the API's one problem table. */
export const DOMAIN_PROBLEMS: Record<DomainErrorCode, { status: number; title: string }> = PROBLEM_TYPES;

/** A problem the edge raises, with its status and title from the table. */
export const edgeProblem = (code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new HttpProblem(PROBLEM_TYPES[code].status, code, PROBLEM_TYPES[code].title, detail, extensions, headers);

/** The same, as a response. */
const problemOf = (code: ProblemCode, detail: string) => problemResponse(PROBLEM_TYPES[code].status, code, PROBLEM_TYPES[code].title, detail);

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
      ...(typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {}),
    };
    return { response: problemResponse(status, err.code, title, err.message, extensions, headers), unexpected: false };
  }
  const e = err as { statusCode?: number; cause?: { package?: string } };
  if (e?.cause?.package === JSON_PARSER && e.statusCode === 415) {
    return {
      response: problemOf('unsupported-media-type', 'Send the body as application/json'),
      unexpected: false,
    };
  }
  if (e?.cause?.package === JSON_PARSER) {
    return {
      response: problemOf('malformed-json', 'The request body is not valid JSON'),
      unexpected: false,
    };
  }
  return {
    response: problemOf('internal', 'Something went wrong on our side; it has been logged'),
    unexpected: true,
  };
}
