import type { FieldSpec } from '../../requests/fields.js';
import type { GroupItem, ItemType, Retention } from '../../requests/group.js';

/** What several request groups share: the evidence file, the default retention, PDF lines from item data. */

/** Kept from the request's close. */
export const DEFAULT_RETENTION: Retention = { fileDays: 2190, dataDays: 2190 };

export const itemType = (label: string, fields: readonly FieldSpec[], file = true): ItemType => ({ label, fields, file });

const shown = (value: unknown): string => (Array.isArray(value) ? value.join(', ') || 'none' : value === true ? 'yes' : value === false ? 'no' : String(value));

/** The item's data as "label: value" lines, in the order its type declares them. */
export function dataLines(type: ItemType, item: Pick<GroupItem, 'data'>): string[] {
  if (!item.data) return [];
  return type.fields.filter((f) => item.data![f.name] !== undefined && item.data![f.name] !== null).map((f) => `${f.label}: ${shown(item.data![f.name])}`);
}

export const REGISTER_PATTERNS = {
  nmc: { pattern: /^\d{2}[A-Z]\d{4}[A-Z]$/, message: 'An NMC PIN looks like 12A3456B' },
  gmc: { pattern: /^\d{7}$/, message: 'A GMC number is 7 digits' },
  hcpc: { pattern: /^[A-Z]{2}\d{1,6}$/, message: 'An HCPC number is a profession code and 1 to 6 digits, like PA12345' },
  other: { pattern: /^[A-Z0-9 -]{1,30}$/, message: 'Letters, digits, spaces and hyphens, at most 30' },
} as const;
