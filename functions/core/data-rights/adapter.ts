import type { Deps } from '../platform/deps.js';
import { formatWithOffset } from '../platform/time.js';
import type { DataSubjectFamily } from './families.js';

/**
 * What a family tells the data rights engine about where it keeps a person's
 * data. The engine knows no family: it reads the client's items under the
 * adapter's prefixes, keeps those that carry the person's address, and asks
 * the adapter what each is, whether it blocks an erasure, what erasing it
 * leaves, and which files go with it.
 */

/** A table item as read. */
export type StoredItem = Record<string, unknown> & { pk: string; sk: string };

/** Something that stops an erasure until the agency has dealt with it. */
export interface ActiveItem {
  type: string;
  id: number | string;
  reason: string;
}

/** What is kept although the person asked for erasure, why, and until when (ISO date). */
export interface Kept {
  what: string;
  why: string;
  until: string;
}

export interface SubjectFile {
  /** The object's key in the documents bucket. */
  key: string;
  /** What it is: "interview report for booking 12". */
  what: string;
  /** The family's operation that downloads it with the agency's token, relative to the family's base URL. */
  download: string;
}

/**
 * How a family finds a person's items and what of them stops an erasure:
 * all an erasure's start needs, kept apart from the rest of the adapter so
 * that function does not carry every family's export and erasure code.
 */
export interface SubjectFinder {
  family: DataSubjectFamily;
  /** Sort-key prefixes in the client's partition (`BOOKING#<family>#`) under which the family keeps people's data. */
  prefixes: readonly string[];
  /** Why this item stops an erasure now, if it does. */
  active(item: StoredItem, now: Date): ActiveItem | undefined;
  /**
   * Items about the person that do not carry the address (a worker's
   * checks): the prefixes to read and which items belong to the person's
   * found ones. Exported; an erasure leaves them as they are (they are kept),
   * unless `erase` says they are the person's to erase too (a reference about them).
   */
  linked?: { prefixes: readonly string[]; belongs: (item: StoredItem, found: readonly StoredItem[]) => boolean; erase?: boolean };
}

export interface DataSubjectAdapter extends SubjectFinder {
  /**
   * The export section an item belongs to (`bookings`, `invites`), or
   * undefined for an item the export leaves out (a copy such as a change-log
   * entry); erasure reaches it all the same.
   */
  section(item: StoredItem): string | undefined;
  /** The item as the export shows it. */
  view(deps: Deps, item: StoredItem): unknown;
  /** The fields that replace the person's on this item (names "Erased", contact and free text null). */
  erasedFields(item: StoredItem, now: Date): Record<string, unknown>;
  /** The item's files in the documents bucket: deleted by an erasure, listed by an export with where to download them. */
  files(item: StoredItem): SubjectFile[];
  /** What the law makes the agency keep of these items (finance records, registration evidence), and until when. */
  kept(items: readonly StoredItem[], now: Date, deps: Deps): Kept[];
  /** The family's own change before an item is erased (a monitored worker is archived first, so checks stop). */
  beforeErase?(deps: Deps, item: StoredItem): Promise<void>;
}

/** What an erased person's name becomes. */
export const ERASED_NAME = 'Erased';

/** What an export shows of an item: its fields without the table's keys and bookkeeping. */
export function exportFields(item: StoredItem, timeZone: string): Record<string, unknown> {
  const { pk, sk, gsi1pk, gsi1sk, entity, version, ttl, payment_token, link_place, ...fields } = item;
  for (const at of ['start_at', 'end_at', 'created_at', 'updated_at', 'payment_due_at', 'expires_at'] as const) {
    if (typeof fields[at] === 'string') fields[at] = formatWithOffset(fields[at], timeZone);
  }
  return fields;
}
