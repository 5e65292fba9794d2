import type * as v from 'valibot';

/**
 * What an operation answers, for its OpenAPI document and the contract test.
 * What it takes (body, query, path) is in its route table entry.
 */

export interface ResponseContract {
  description: string;
  item?: v.GenericSchema;
  /** `page`: `{data: [item], next_cursor}`; `single`: one resource, bare or in the family's envelope (FamilySpec). */
  wrap?: 'page' | 'single';
  content?: 'application/json' | 'application/pdf' | 'text/html';
}

export interface OperationContract {
  summary: string;
  description?: string;
  responses: Record<number, ResponseContract>;
}

export const json = (description: string, item: v.GenericSchema, wrap?: ResponseContract['wrap']): ResponseContract => ({ description, item, wrap });
export const none = (description: string): ResponseContract => ({ description });
export const html = (description: string): ResponseContract => ({ description, content: 'text/html' });
export const pdf = (description: string): ResponseContract => ({ description, content: 'application/pdf' });
