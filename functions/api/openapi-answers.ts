import { familySpec } from '../core/platform/families.js';
import type { OperationContract } from './contracts/contract.js';
import { tokenOperations } from './routes/shared.js';
import type { Route } from './routes/index.js';
import { pathParamNames } from './schemas/params.js';

/**
 * What the documents say about answers beyond their bodies: the headers the
 * edge sets (deprecation, rate limits, redirects), which operations a rate
 * limit applies to, and the public pages, whose every error is a page.
 */

type Json = Record<string, any>;

/** Response headers, once, for `components.headers`. */
export const HEADERS: Record<string, Json> = {
  Deprecation: {
    description: 'When the API was deprecated, as `@` and Unix seconds (RFC 9745)',
    schema: { type: 'string', pattern: '^@\\d+$' },
    example: '@1767225600',
  },
  Sunset: { description: 'When the API is switched off for good (RFC 8594)', schema: { type: 'string' }, example: 'Wed, 30 Jun 2027 00:00:00 GMT' },
  Link: {
    description: 'The migration notes (`rel="deprecation"`) and, where there is one, the same operation in the successor API (`rel="successor-version"`)',
    schema: { type: 'string' },
    example:
      '<https://api.northwind-care.example/practical-training-legacy/docs>; rel="deprecation"; type="text/html", <https://api.northwind-care.example/practical-training/bookings>; rel="successor-version"',
  },
  'Retry-After': { description: 'Seconds until the limit window ends', schema: { type: 'integer', minimum: 0 }, example: 42 },
  RateLimit: {
    description: 'What is left of the window: `r` requests, `t` seconds until it ends (draft-ietf-httpapi-ratelimit-headers)',
    schema: { type: 'string' },
    example: '"default";r=599;t=42',
  },
  'RateLimit-Policy': { description: 'The limit: `q` requests per `w` seconds', schema: { type: 'string' }, example: '"default";q=600;w=60' },
  Location: {
    description: 'Where to go next',
    schema: { type: 'string', format: 'uri-reference' },
    example: 'https://api.northwind-care.example/practical-training/pay/JPjb_hn4J2vE0bA6mptK1W5t',
  },
  'WWW-Authenticate': { description: 'The bearer scheme (RFC 6750)', schema: { type: 'string' }, example: 'Bearer error="invalid_token"' },
};

/** The headers the paths refer to. */
export const usedHeaders = (paths: Json): Json => {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(HEADERS).filter(([name]) => text.includes(`"#/components/headers/${name}"`)));
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A public page: its link token is the credential, and it answers every error as a page (functions/middleware/page-handler.ts). */
export const isPage = (route: Route, contract: OperationContract): boolean =>
  route.auth === 'none' && pathParamNames(route.path).includes('token') && Object.values(contract.responses).some((r) => r.content === 'text/html');

const TOKEN_EXCHANGES = new Set<string>(
  Object.values(tokenOperations)
    .filter((o) => o.auth === 'none')
    .map((o) => o.operationId),
);

/**
 * Why a rate limit may refuse the operation (functions/core/access/rate-limit.ts),
 * or undefined where none applies: a token's requests per window, failed
 * sign-ins at the token exchange and refresh, requests to a public link.
 */
export function rateLimitOf(route: Route, contract: OperationContract): string | undefined {
  if (route.auth === 'bearer') return 'Too many requests: the client spent its window (Retry-After; RateLimit and RateLimit-Policy say how much is left)';
  if (TOKEN_EXCHANGES.has(route.operationId)) return 'Too many failed sign-ins from this address or for this client id (Retry-After)';
  if (isPage(route, contract)) return 'Too many requests for this link, from this address or in all (Retry-After)';
  return undefined;
}

/** A page that answers an error: the status's own page. */
export const errorPage = (description: string, title: string): Json => ({
  description,
  content: { 'text/html': { schema: { type: 'string' }, example: `<!doctype html><html lang="en-GB"><head><title>${title}</title>…</html>` } },
});

/** Sets the headers each documented answer of the operation carries. */
export function addAnswerHeaders(route: Route, responses: Record<string, Json>): void {
  const deprecated = !!familySpec(route.family).deprecation;
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const names = [
      ...(deprecated ? ['Deprecation', 'Sunset', 'Link'] : []),
      ...(code === 429 ? ['Retry-After'] : []),
      // An authenticated request is counted: its answers say what is left of the window.
      ...(route.auth === 'bearer' && code !== 401 && code !== 500 ? ['RateLimit', 'RateLimit-Policy'] : []),
      ...(code === 401 && route.auth === 'bearer' ? ['WWW-Authenticate'] : []),
      ...(code === 303 ? ['Location'] : []),
    ];
    if (names.length) response.headers = { ...response.headers, ...Object.fromEntries(names.map((name) => [name, ref(name)])) };
  }
}

/** A request body as the family takes it: where unknown fields are refused, every object says so (`additionalProperties: false`). */
export function closed(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Json = Object.fromEntries(
    Object.entries(schema).map(([k, value]) => [
      k,
      k === 'properties'
        ? Object.fromEntries(Object.entries(value as Json).map(([n, p]) => [n, closed(p)]))
        : typeof value === 'object'
          ? closed(value)
          : value,
    ]),
  );
  if (copy.type === 'object' && copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** The JSON Merge Patch (RFC 7396) of a body's schema: every field optional, an optional one nullable (null clears it), an object patched member by member. */
export function mergePatchOf(target: Json): Json {
  const required = new Set<string>(target.required ?? []);
  const properties = Object.fromEntries(
    Object.entries(target.properties as Record<string, Json>).map(([name, property]) => {
      const {
        default: _,
        required: __,
        description,
        'x-contract': contract,
        ...member
      } = property.type === 'object' && property.properties ? { ...property, ...mergePatchOf(property) } : property;
      const nullable = member.type === 'null' || (member.anyOf as Json[] | undefined)?.some((m) => m.type === 'null');
      const field = required.has(name) || nullable ? member : { anyOf: [member, { type: 'null' }] };
      return [name, { ...field, ...(description ? { description } : {}), ...(contract ? { 'x-contract': contract } : {}) }];
    }),
  );
  return { type: 'object', properties, additionalProperties: false };
}
