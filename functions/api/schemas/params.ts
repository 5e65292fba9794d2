import * as v from 'valibot';
import { GROUP_SEGMENTS } from '../../core/portal-v2/groups/names.js';
import { integerFromText, built } from './fields.js';

/**
 * Path parameters, by name: every `{name}` in the route table has its schema
 * here (a guard-rail test checks it). A value that fails names nothing that
 * exists, so the edge answers 404, never 500, and never reaches the table
 * (DynamoDB refuses keys over 2 KB).
 */

/** A positive integer id, as sort keys pad them (10 digits). */
const id = /* @__PURE__ */ built(() =>
  v.pipe(integerFromText(/^[1-9]\d{0,9}$/, 'Not an id', 1, 9_999_999_999), v.description('The id, as the API returned it')),
);

/** A capability token or hold hash: base64url of 16 to 64 random bytes. */
const tokenOf = (description: string) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,96}$/), v.description(description));

/** A request group's path segment. */
const group = /* @__PURE__ */ built(() => v.pipe(v.picklist(GROUP_SEGMENTS), v.description('The request group: ' + GROUP_SEGMENTS.join(', '))));

const asset = /* @__PURE__ */ built(() => v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/), v.description('A file of the documentation page')));

export const PATH_PARAMS = /* @__PURE__ */ built(
  () =>
    ({
      id,
      token: tokenOf('The token in the link the page was reached by'),
      holdHash: tokenOf('The `hold_hash` that the hold operation (POST /timeslots/hold, POST /seats/hold) answered'),
      asset,
      roleId: v.pipe(
        v.string(),
        v.regex(/^[a-z][a-z0-9_-]{0,39}$/),
        v.description("A built-in role (`owner`, `admin`, `compliance_manager`, `viewer`, `billing`) or a custom role's id"),
      ),
      group,
      item_id: id,
    }) as const,
);

export type PathParamName = keyof typeof PATH_PARAMS;
export type PathParams<Path extends string> = {
  [K in PathParamNamesOf<Path>]: K extends PathParamName ? v.InferOutput<(typeof PATH_PARAMS)[K]> : never;
};
type PathParamNamesOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNamesOf<Rest> : never;

export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
