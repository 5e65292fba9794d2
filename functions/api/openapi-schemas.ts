import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { FAMILIES, type FamilyId } from '../core/platform/families.js';
import { exampleFor, RESOURCE_EXAMPLES } from './contracts/examples.js';
import { SPEC_FIELDS, type ResponseContract } from './contracts/index.js';
import { closed, mergePatchOf } from './openapi-answers.js';
import type { Route } from './routes/index.js';
import { refusesUnknownFields } from './routes/operation.js';

/**
 * The parts of the OpenAPI documents that come from the valibot schemas: JSON
 * Schemas marked spec or project, parameters, request bodies and successful
 * answers with their examples. ./openapi.ts puts them together per operation.
 */

export type Json = Record<string, any>;

/**
 * Bodies are documented as sent. Path and query parameters are documented by
 * the value they stand for (`output`): an id arrives as text in the URL, but
 * it is an integer, and typed clients should pass one.
 */
export function jsonSchema(schema: v.GenericSchema, typeMode: ConversionConfig['typeMode'] = 'ignore'): Json {
  const { $schema, ...rest } = toJsonSchema(schema, { errorMode: 'ignore', typeMode }) as Json;
  void $schema;
  const spec = SPEC_FIELDS.get(schema);
  if (rest.properties) {
    for (const [name, property] of Object.entries(rest.properties as Record<string, Json>)) {
      property['x-contract'] = spec === 'all' || spec?.includes(name) ? 'spec' : 'project';
    }
  }
  return rest;
}

/** The entries of an object schema, also when it is piped through checks (TimeslotsQuery). */
export function objectEntries(schema: v.GenericSchema): Record<string, v.GenericSchema> {
  if ('entries' in schema) return schema.entries as Record<string, v.GenericSchema>;
  const inner = 'pipe' in schema ? (schema.pipe as v.GenericSchema[]).find((item) => 'entries' in item) : undefined;
  if (!inner) throw new Error('A query schema must be an object');
  return inner.entries as Record<string, v.GenericSchema>;
}

/** A parameter; its schema's description is the parameter's, and its default is what the server takes when it is left out. */
export function parameter(name: string, where: 'path' | 'query', schema: v.GenericSchema, example: unknown): Json {
  const { description, ...documented } = jsonSchema(schema, 'output');
  const absent = v.safeParse(schema, undefined);
  if (absent.success && absent.output !== undefined) documented.default = absent.output;
  return {
    name,
    in: where,
    required: where === 'path' || !absent.success,
    ...(description ? { description } : {}),
    schema: documented,
    ...(example === undefined ? {} : { example }),
  };
}

/** A successful answer: its content, schema and example (wrapped in a page or the portal's envelope as the family answers). */
export function successResponse(response: ResponseContract, family: FamilyId): Json {
  const content = response.content;
  const example = response.example ?? (response.item ? RESOURCE_EXAMPLES.get(response.item) : undefined);
  const value = example === undefined ? undefined : exampleFor(example, family);
  if (Array.isArray(content))
    return { description: response.description, content: Object.fromEntries(content.map((type) => [type, { schema: { type: 'string' }, example: value }])) };
  if (content === 'application/pdf')
    return { description: response.description, content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };
  if (content === 'text/html') return { description: response.description, content: { 'text/html': { schema: { type: 'string' }, example: value } } };
  if (!response.item)
    return value === undefined
      ? { description: response.description }
      : { description: response.description, content: { 'application/json': { schema: { type: 'object' }, example: value } } };
  let schema = jsonSchema(response.item);
  let wrapped = value;
  if (response.wrap === 'page') {
    schema = {
      type: 'object',
      properties: { data: { type: 'array', items: schema }, next_cursor: { type: ['string', 'null'] } },
      required: ['data', 'next_cursor'],
      additionalProperties: false,
    };
    wrapped = { data: [value], next_cursor: null };
  } else if (response.wrap === 'single' && FAMILIES[family].envelope === 'data-message') {
    // The portal's envelope is the specification's: `data` and `message`.
    schema = {
      type: 'object',
      properties: { data: schema, message: { type: 'string', 'x-contract': 'spec' } },
      required: ['data', 'message'],
      additionalProperties: false,
    };
    schema.properties.data['x-contract'] = 'spec';
    wrapped = { data: value, message: response.message ?? response.description };
  }
  if (value === undefined) throw new Error(`No example for "${response.description}"`);
  return { description: response.description, content: { 'application/json': { schema, example: wrapped } } };
}

/** A JSON body as documented: a merge patch as the patch of what it patches; closed where the family refuses unknown fields. */
export function bodySchema(route: Route, schema: v.GenericSchema): Json {
  const documented = route.contentType === 'application/merge-patch+json' ? mergePatchOf(jsonSchema(schema)) : jsonSchema(schema);
  return refusesUnknownFields(route, route.family) ? closed(documented) : documented;
}

/** An upload's body (a CSV file, a signed JSON event): as it is, or the multipart part `file`. */
export function uploadBody(upload: NonNullable<Route['upload']>, example: unknown) {
  const file = { type: 'string', format: 'binary' };
  const content: Record<string, unknown> = {};
  for (const type of upload.types) {
    const schema =
      type === 'multipart/form-data'
        ? { type: 'object', required: ['file'], properties: { file } }
        : type === 'application/json'
          ? { type: 'object', description: 'As the sender wrote it: its signature covers these exact bytes.' }
          : { type: 'string' };
    content[type] = { schema, ...(example === undefined || type === 'multipart/form-data' ? {} : { example }) };
  }
  return { required: true, content };
}
