import * as v from 'valibot';

/**
 * What a failing field says, in plain English: the one place valibot's own
 * wording ("Invalid key: Expected "a" but received undefined") becomes what
 * a person reads ("Required"), worded as the schemas' own messages are
 * ("One of a, b", "At most 100 characters"). A message a schema states
 * itself is kept.
 * SDK-free: the OpenAPI documents' 422 examples are built with it too.
 */

/** valibot's default message: `Invalid <what>: Expected <x> but received <y>` (a schema's own message never looks like this). */
const VALIBOT_WORDING = /^Invalid \w+: (Expected|Received)\b/;

/** `("a" | "b")` → `a, b`; null when the expected value is not a list of literals. */
function literals(expected: string | null): string[] | null {
  if (!expected) return null;
  const parts = expected.replace(/^\((.*)\)$/, '$1').split(' | ');
  const values = parts.filter((p) => p !== 'null' && p !== 'undefined');
  if (!values.every((p) => /^".*"$|^-?\d+(\.\d+)?$|^true$|^false$/.test(p))) return null;
  return values.map((p) => (p.startsWith('"') ? (JSON.parse(p) as string) : p));
}

const orNull = (expected: string | null) => (expected && /\bnull\b/.test(expected) ? ', or null' : '');

const counted = (n: unknown, input: unknown) => `${String(n)} ${Array.isArray(input) ? 'item' : 'character'}${n === 1 ? '' : 's'}`;

/** The plain message of one issue. */
export function plainMessage(issue: v.BaseIssue<unknown>): string {
  if (!VALIBOT_WORDING.test(issue.message)) return issue.message;
  const { type, expected, input } = issue;
  const requirement = (issue as { requirement?: unknown }).requirement;
  if (input === undefined && issue.kind === 'schema') return 'Required';
  const choices = literals(expected);
  switch (type) {
    case 'string':
      return `Must be text${orNull(expected)}`;
    case 'number':
      return `Must be a number${orNull(expected)}`;
    case 'boolean':
      return `Must be true or false${orNull(expected)}`;
    case 'object':
    case 'loose_object':
    case 'strict_object':
      return `Must be a JSON object${orNull(expected)}`;
    case 'array':
      return `Must be a list${orNull(expected)}`;
    case 'null':
      return 'Must be null';
    case 'literal':
    case 'picklist':
    case 'enum':
    case 'union':
    case 'variant':
      if (choices?.length === 1) return `Must be ${choices[0]}`;
      if (choices) return `One of ${choices.join(', ')}`;
      return 'Is not one of the accepted forms';
    case 'integer':
      return 'Must be a whole number';
    case 'min_value':
      return `At least ${String(requirement)}`;
    case 'max_value':
      return `At most ${String(requirement)}`;
    case 'min_length':
      return `At least ${counted(requirement, input)}`;
    case 'max_length':
      return `At most ${counted(requirement, input)}`;
    case 'length':
      return `Exactly ${counted(requirement, input)}`;
    case 'non_empty':
      return 'Must not be empty';
    case 'email':
      return 'Must be an e-mail address';
    case 'url':
      return 'Must be a URL (https://…)';
    case 'iso_date':
      return 'Must be a date (YYYY-MM-DD)';
    case 'iso_timestamp':
    case 'iso_date_time':
      return 'Must be a date and time with its offset (2026-11-23T09:00:00Z)';
    case 'regex':
      return 'Is not in the accepted format';
    default:
      return 'Is not valid';
  }
}

/** Where a valibot issue points in a body, as a JSON pointer (`/registration/number`; '' for the whole body). */
export function issuePointer(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue) ?? '';
  return path ? '/' + path.replaceAll('.', '/') : '';
}

/** One failing field: a JSON `pointer` into the body, or a query `parameter`, with its plain message. */
export type IssueField = ({ pointer: string } | { parameter: string }) & { detail: string };

/**
 * A valibot failure as one entry per field: a JSON pointer into the body, or
 * the name of the query parameter (a rule on the whole query names the
 * parameters it is about in its own message).
 */
export const issueFields = (issues: readonly v.BaseIssue<unknown>[], where: 'body' | 'query'): IssueField[] =>
  issues.map((issue) =>
    where === 'body' ? { pointer: issuePointer(issue), detail: plainMessage(issue) } : { parameter: v.getDotPath(issue) ?? '', detail: plainMessage(issue) },
  );
