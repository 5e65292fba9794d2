import * as v from 'valibot';
import { contractOf } from '../../functions/api/contracts/index.js';
import { exampleFor } from '../../functions/api/contracts/examples.js';
import { routesOf } from '../../functions/api/routes/index.js';
import { schemaFor } from '../../functions/api/routes/operation.js';
import { plainMessage } from '../../functions/api/schemas/messages.js';
import { unknownFields } from '../../functions/api/schemas/unknown-fields.js';
import { WorkerCreate } from '../../functions/api/schemas/registration-monitoring.js';
import { FAMILY_IDS } from '../../functions/core/platform/families.js';
import { fieldErrors } from '../../functions/middleware/http-handler.js';

/** What a caller reads when a field is refused: plain English, never the validator's own wording. */

const VALIBOT_WORDING = /Invalid (key|type|length|value)|Expected|received/;
const WRONG_VALUES: unknown[] = [undefined, null, 12345, -1, 1.5, 'zz', '', 'x'.repeat(5000), {}, [], [{}], true];

/** Every body and query schema with its example, and each field replaced in turn by each wrong value. */
function* hostileInputs(): Generator<{ where: 'body' | 'query'; schema: v.GenericSchema; value: unknown; key: string }> {
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const { request } = contractOf(route);
      const key = `${family} ${route.method} ${route.path}`;
      for (const [where, schema, example] of [
        ['body', schemaFor(route.body, family), request?.body === undefined ? {} : exampleFor(request.body, family)],
        ['query', schemaFor(route.query, family), request?.query ?? {}],
      ] as const) {
        if (!schema) continue;
        for (const wrong of WRONG_VALUES) yield { where, schema, value: wrong, key };
        if (typeof example !== 'object' || example === null || Array.isArray(example)) continue;
        for (const field of Object.keys(example)) {
          for (const wrong of WRONG_VALUES) yield { where, schema, value: { ...example, [field]: wrong }, key: `${key} ${field}` };
        }
      }
    }
  }
}

it('no field error of any body or query says "Invalid key", "Expected" or "received"', () => {
  const worded: string[] = [];
  let refusals = 0;
  for (const { where, schema, value, key } of hostileInputs()) {
    const result = v.safeParse(schema, value);
    if (result.success) continue;
    for (const error of fieldErrors(result.issues, where)) {
      refusals++;
      if (VALIBOT_WORDING.test(error.detail)) worded.push(`${key}: ${error.detail}`);
    }
  }
  expect(refusals).toBeGreaterThan(1000);
  expect([...new Set(worded)]).toEqual([]);
});

it("says what is wanted: required, one of, a length, a type, worded as the schemas' own messages are", () => {
  const schema = v.object({
    name: v.string(),
    kind: v.picklist(['a', 'b']),
    note: v.pipe(v.string(), v.maxLength(3)),
    n: v.number(),
    tags: v.array(v.string()),
  });
  const messages = (value: unknown) => v.safeParse(schema, value).issues!.map(plainMessage);
  expect(messages(undefined)).toEqual(['Required']);
  expect(messages({ kind: 'c', note: 'long', n: '1', tags: [2] })).toEqual([
    'Required',
    'One of a, b',
    'At most 3 characters',
    'Must be a number',
    'Must be text',
  ]);
  // A schema's own message is kept.
  expect(v.safeParse(v.pipe(v.string(), v.minLength(1, 'Required')), '').issues!.map(plainMessage)).toEqual(['Required']);
});

it('an unknown body field is refused at its pointer, naming the close known field', () => {
  expect(unknownFields(WorkerCreate, { first_name: 'A', externl_ref: 'W-1', zzz: 1 })).toEqual([
    { pointer: '/externl_ref', detail: 'Unknown field; did you mean external_ref?' },
    { pointer: '/zzz', detail: 'Unknown field' },
  ]);
  const nested = v.object({ referees: v.array(v.object({ email: v.string() })), meta: v.optional(v.nullable(v.object({ a: v.string() }))) });
  expect(unknownFields(nested, { referees: [{ email: 'x' }, { emial: 'y' }], meta: { a: 'b', 'c/d': 1 } })).toEqual([
    { pointer: '/referees/1/emial', detail: 'Unknown field; did you mean email?' },
    { pointer: '/meta/c~1d', detail: 'Unknown field' },
  ]);
  expect(unknownFields(nested, { referees: [], constructor: 1 })).toEqual([{ pointer: '/constructor', detail: 'Unknown field' }]);
});

it("no operation's example body carries a field its schema does not know", () => {
  const extra: string[] = [];
  for (const family of FAMILY_IDS) {
    for (const route of routesOf(family)) {
      const body = schemaFor(route.body, family);
      const example = contractOf(route).request?.body;
      if (!body || example === undefined) continue;
      for (const { pointer } of unknownFields(body, exampleFor(example, family))) extra.push(`${family} ${route.operationId} ${pointer}`);
    }
  }
  expect(extra).toEqual([]);
});
