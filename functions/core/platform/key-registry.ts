import type { FamilyId } from './families.js';

/**
 * Keys of the single table. Its partition kinds and the sort-key prefixes
 * used inside them are ./table-keys.ts, and its index's ./gsi1-keys.ts.
 * Entity modules build their keys from those constants and nowhere else; test/unit/key-registry.test.ts checks
 * that no prefix of a kind is a prefix of another, so a `begins_with` query
 * for one entity never returns another's items.
 *
 * Conventions the test relies on:
 * - a value ending in `#` is a prefix followed by '#'-separated parts; any
 *   other value is an exact key (`'CLIENT'`, `'CLIENTS'`);
 * - `''` (any sort key) only in a kind that holds one entity;
 * - a family-scoped key puts the family right after its prefix
 *   (`BOOKING#clinical-interview#…`), and family ids never contain '#', so
 *   one family's prefix never begins another's.
 */

export const SEP = '#';

/** Bumped whenever keys change shape; the local stack refuses a table written under another version. */
export const KEY_FORMAT_VERSION = 2;

export interface PartitionKind {
  pk: string;
  sk: Record<string, string>;
}

/** `prefix` then the parts, '#'-separated: `key('BOOKING#', 'clinical-interview', '0000000007')`. */
export const key = (prefix: string, ...parts: (string | number)[]): string => prefix + parts.join(SEP);

/** Where a family's keys of `prefix` begin, for `begins_with`: `BOOKING#clinical-interview#`. */
export const familyPrefix = (prefix: string, family: FamilyId): string => `${prefix}${family}${SEP}`;
