import type * as v from 'valibot';
import type { Permission } from '../../core/access/roles.js';
import type { DocumentKindId } from '../../core/documents/kinds.js';
import { familySpec, type FamilyId } from '../../core/platform/families.js';

/**
 * An operation of the API: everything the edge needs to serve it. The route
 * table is made of these; a handler is built from its operation (never
 * restating auth, idempotency or schemas), the CDK stacks and the local
 * server route from them, and the OpenAPI documents are generated from them
 * with their contract entries.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = v.GenericSchema;
/**
 * A schema, or one per family (webhook bodies take the family's own event
 * kinds) or per path (a request group's create body is its kind's); without
 * the path (the OpenAPI documents) it is every path's.
 */
export type SchemaOf<S extends Schema> = S | ((family: FamilyId, params?: Record<string, unknown>) => S);

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** Relative to the family's base URL; `{name}` marks a path parameter (schemas in ../schemas/params.ts). */
  path: string;
  /** Module under functions/http that exports `handler`, without extension. */
  handler: string;
  /** `bearer`: an access token of the family; `none`: public (token exchange, documents, and pages whose link token is the credential). */
  auth: 'bearer' | 'none';
  /** Creating POSTs that honour `Idempotency-Key`. */
  idempotent?: boolean;
  /** `spec`: named or stated by the source specification; `project`: decided by this project (docs/decisions.md). */
  contract: 'spec' | 'project';
  /**
   * A shared operation the specification names in some families only: `spec`
   * in these, `contract` in the others (the route of each family says which).
   */
  specIn?: readonly FamilyId[];
  /** The family, for an operation of one family; a shared operation learns it from the request (the stage variable `family`). */
  family?: FamilyId;
  body?: SchemaOf<Schema>;
  /**
   * `ignored`: body fields the schema does not know are dropped, not refused
   * (OAuth 2.0's token endpoint must ignore unrecognised parameters, RFC 6749
   * section 3.1). Otherwise a current family answers 422 at the field's
   * pointer (docs/api.md, Errors); a deprecated family drops them.
   */
  extraFields?: 'ignored';
  /** The body's media type when it is not `application/json` (a JSON Merge Patch); any other is 415. */
  contentType?: 'application/merge-patch+json';
  /** An upload (a CSV import; Stripe's signed events, whose signature covers the bytes): the raw body, up to `maxBytes`, in one of `types` (else 415); the handler reads it as `upload`. */
  upload?: { maxBytes: number; types: readonly ('text/csv' | 'multipart/form-data' | 'application/json')[] };
  /** The function's time-out when the usual 10 s is not enough (a 10,000-row upload checked row by row); API Gateway waits at most 30 s. */
  timeoutSeconds?: number;
  query?: SchemaOf<Schema>;
  /** What the function needs beyond the table: files beside its bundle. */
  needs?: readonly 'swagger-ui'[];
  /** A deprecated family's operation: its replacement, as a path in the successor family (the `successor-version` link). */
  successor?: string;
  /** Answered after a deprecated family's sunset and in its brownouts (the documentation, for those who migrate). */
  servedAfterSunset?: boolean;
  /**
   * What an `Acting-User` (decision 10) must be to act on this operation:
   * every bearer operation of a family with team users says (FamilySpec
   * `actingUser`), shared ones included
   * (they say it for those families only: ./acting-user.ts). Checked by the
   * HTTP handler once the path has been found and before anything else is
   * read or written; an unknown, disabled or unpermitted user is 403
   * `acting-user-not-permitted`.
   */
  actingUser?: ActingUserRule;
  /** Reaches Stripe (the payment page's submit, Stripe's events): the function may read the Stripe secrets of a stage that pays through Stripe. */
  stripe?: true;
  /** The document kinds the function reaches (`bindDocuments`: under their prefixes only). */
  documents?: readonly DocumentKindId[];
}

/**
 * A permission: an active team user of the account whose role holds it.
 * `team-user`: any active team user of the account (an operation the
 * vocabulary has no permission for). `{ healthKinds }`: a request group's
 * read, the permission for a health kind's group
 * and any active team user for another's.
 */
export type ActingUserRule = Permission | 'team-user' | { healthKinds: Permission };

type Resolved<S> = S extends (family: FamilyId) => infer R ? R : S;
export type BodyOf<O extends Operation> = O['body'] extends SchemaOf<Schema> ? v.InferOutput<Resolved<O['body']> & Schema> : undefined;
export type QueryOf<O extends Operation> = O['query'] extends SchemaOf<Schema> ? v.InferOutput<Resolved<O['query']> & Schema> : undefined;

export const schemaFor = (schema: SchemaOf<Schema> | undefined, family: FamilyId, params?: Record<string, unknown>): Schema | undefined =>
  typeof schema === 'function' ? schema(family, params) : schema;

/**
 * The path of an operation with its parameters filled in, relative to the
 * family's base URL: links to public pages are derived from the route table,
 * never spelled in handlers.
 */
export function pathOf(operation: Pick<Operation, 'path'>, params: Record<string, string | number>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** An absolute link to an operation of the family at `baseUrl`. */
export const linkTo = (baseUrl: string, operation: Pick<Operation, 'path'>, params: Record<string, string | number>): string =>
  baseUrl + pathOf(operation, params);

/**
 * The path as API Gateway matches it: a `{name}` segment takes any one
 * segment. `params` are the names, in the order the pattern captures them.
 */
export function pathPattern(path: string): { pattern: RegExp; params: string[] } {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), params };
}

/**
 * Whether the operation refuses body fields it does not know: the current
 * families do; a deprecated family keeps taking what its clients send until
 * they leave, and an operation may say it ignores them (OAuth's token
 * endpoint, RFC 6749 section 3.1).
 */
export const refusesUnknownFields = (op: Pick<Operation, 'extraFields'>, family: FamilyId): boolean =>
  op.extraFields !== 'ignored' && !familySpec(family).deprecation;
