import type * as v from 'valibot';

/**
 * The fields of a JSON body its schema does not know, each at its pointer:
 * a misspelt `expiry_day` is refused, not silently dropped (docs/api.md,
 * Errors). Walks the schema the body was validated with, so a nested object
 * or a list of objects is checked as deep as the schema describes it.
 */

type Node = v.GenericSchema & { type: string; entries?: Record<string, Node>; wrapped?: Node; item?: Node; options?: Node[]; pipe?: unknown[] };

const WRAPPERS = new Set(['optional', 'nullable', 'nullish', 'exact_optional', 'non_optional', 'non_nullable', 'non_nullish', 'undefinedable']);
/** Objects that take any key by design: their extra keys are theirs. */
const OPEN = new Set(['loose_object', 'object_with_rest', 'record']);

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The unknown-field message, naming the closest known field when one is close. */
export function unknownFieldMessage(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase();
  const [best] = known
    .map((name) => ({ name, d: distance(lower, name.toLowerCase()) }))
    .filter(({ name, d }) => d <= Math.max(2, Math.floor(name.length / 4)) && d < name.length / 2)
    .sort((a, b) => a.d - b.d);
  return best ? `Unknown field; did you mean ${best.name}?` : 'Unknown field';
}

export function unknownFields(schema: v.GenericSchema, value: unknown, pointer = ''): { pointer: string; detail: string }[] {
  let node = schema as Node;
  while (WRAPPERS.has(node.type) && node.wrapped) node = node.wrapped;
  if (value === null || typeof value !== 'object' || OPEN.has(node.type)) return [];
  if (node.type === 'array' && node.item && Array.isArray(value)) return value.flatMap((item, i) => unknownFields(node.item!, item, `${pointer}/${i}`));
  if ((node.type === 'union' || node.type === 'variant') && node.options) {
    // The option the value is closest to: none at all when one takes it as it is.
    const found = node.options.map((option) => unknownFields(option, value, pointer)).sort((a, b) => a.length - b.length);
    return found[0] ?? [];
  }
  if (!node.entries || Array.isArray(value)) return [];
  const entries = node.entries;
  const known = Object.keys(entries);
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) =>
    Object.hasOwn(entries, key)
      ? unknownFields(entries[key]!, field, `${pointer}/${escape(key)}`)
      : [{ pointer: `${pointer}/${escape(key)}`, detail: unknownFieldMessage(key, known) }],
  );
}
