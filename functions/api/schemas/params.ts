import * as v from 'valibot';

/**
 * Path parameters, by name: every `{name}` in the route table has its schema
 * here (a guard-rail test checks it). A value that fails names nothing that
 * exists, so the edge answers 404, never 500, and never reaches the table
 * (DynamoDB refuses keys over 2 KB).
 */

/** A positive integer id, as sort keys pad them (10 digits). */
const id = v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/), v.transform(Number));

/** A capability token or hold hash: base64url of 16 to 64 random bytes. */
const token = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,96}$/));

const asset = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/));

export const PATH_PARAMS = { id, token, holdHash: token, asset } as const;

export type PathParamName = keyof typeof PATH_PARAMS;
export type PathParams<Path extends string> = {
  [K in PathParamNamesOf<Path>]: K extends PathParamName ? v.InferOutput<(typeof PATH_PARAMS)[K]> : never;
};
type PathParamNamesOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamNamesOf<Rest> : never;

export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
