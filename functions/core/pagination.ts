import { DomainError } from './errors.js';

/**
 * Opaque list cursors. A cursor is the last key of a page; decoding checks
 * that it belongs to the partition being listed, so a forged cursor cannot
 * walk into another client's items.
 */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export const encodeCursor = (key: Record<string, unknown> | undefined): string | null =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

export function decodeCursor(cursor: string | undefined, expectedPk: string): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (key && typeof key === 'object' && key.pk === expectedPk && typeof key.sk === 'string') return key;
  } catch {
    // fall through
  }
  throw new DomainError('invalid-cursor', 'The cursor is not one this list handed out');
}
