import type * as v from 'valibot';
import type { Example, Refusal } from './examples.js';
import type { TagName } from './tags.js';

/**
 * What an operation answers, for its OpenAPI document and the contract test.
 * What it takes (body, query, path) is in its route table entry.
 */

export interface ResponseContract {
  description: string;
  item?: v.GenericSchema;
  /** `page`: `{data: [item], next_cursor}`; `single`: one resource, bare or in the family's envelope (FamilySpec). */
  wrap?: 'page' | 'single';
  /** Not JSON: the media type, or the types (an asset is a style sheet or a script). */
  content?: 'application/json' | 'application/pdf' | 'text/html' | readonly ('text/css' | 'application/javascript')[];
  /** The example answer, when the item's usual one (examples.ts) does not fit; a refusal for a problem. */
  example?: Example;
  /** The `message` of the portal's `{data, message}` envelope in the example. */
  message?: string;
}

export interface OperationContract {
  summary: string;
  /** What it does and when to use it, for someone who has not read the code. */
  description: string;
  tag: TagName;
  /** The example request (each part checked against the operation's schemas by a test). */
  request?: {
    params?: Record<string, string | number>;
    query?: Record<string, string | number>;
    body?: Example;
    /** A JSON Merge Patch body: the schema of what it patches (the document shows each of its fields optional, an optional one nullable). */
    patches?: v.GenericSchema;
    /** Fields that, laid over the example body or query, fail validation: the 422 example is what the schema then says. */
    invalid?: Record<string, unknown>;
  };
  /** Request headers the operation reads beyond the usual ones (Stripe's signature). */
  headers?: { name: string; description: string; required: boolean; example: string }[];
  /** Refusals beyond the request's own validation, shown as further examples of their status. */
  refusals?: Refusal[];
  responses: Record<number, ResponseContract>;
}

type JsonOptions = Pick<ResponseContract, 'example' | 'message'>;

export const json = (description: string, item: v.GenericSchema, wrap?: ResponseContract['wrap'], options: JsonOptions = {}): ResponseContract => ({
  description,
  item,
  wrap,
  ...options,
});
export const none = (description: string): ResponseContract => ({ description });
export const html = (description: string, example?: string): ResponseContract => ({ description, content: 'text/html', example });
export const pdf = (description: string): ResponseContract => ({ description, content: 'application/pdf' });
