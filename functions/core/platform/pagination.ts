import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { isConditionalCheckFailed } from './conditions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import * as TABLE_KEYS from './table-keys.js';

/**
 * Opaque list cursors. A cursor is the key where a page ended (the table's
 * key, and the index's too for a list read from the index), sealed with
 * AES-256-GCM under a key kept in the table; the list it belongs to
 * (partition and sort-key prefix or range) is authenticated with it, so a
 * forged, edited or truncated cursor, another client's, or another list's
 * fails to open and is invalid-cursor. It reveals no key text.
 */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * The list a cursor belongs to: a partition of the table, or of the index
 * `gsi1` when `index` says so, and the sort keys of its items (a prefix, or
 * a range between two, inclusive) when the partition holds others too.
 */
export interface ListScope {
  pk: string;
  prefix?: string;
  range?: { from: string; to: string };
  index?: 'gsi1';
}

/** Where a page ended: the table's key, and for an index list the index key as well. */
export type PageKey = { pk: string; sk: string; gsi1pk?: string; gsi1sk?: string };

const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Far above any cursor we hand out (a sort key is well under 200 characters); the query schema bounds it too. */
const MAX_CURSOR_CHARS = 1024;

export const cursorKeyItem = { pk: TABLE_KEYS.config.pk, sk: TABLE_KEYS.config.sk.cursorKey } as const;

const invalid = () => new DomainError('invalid-cursor', 'The cursor is not one this list handed out');

/** What the tag binds besides the sort key: the version and the list. */
const associatedData = (scope: ListScope) =>
  Buffer.from(JSON.stringify(['list-cursor', VERSION, scope.index ?? 'table', scope.pk, scope.prefix ?? '', scope.range?.from ?? '', scope.range?.to ?? '']));

/** The key attributes a list's cursors carry: the index's partition and sort key first, then the table's. */
const keyNames = (scope: ListScope) => (scope.index ? (['gsi1pk', 'gsi1sk', 'pk', 'sk'] as const) : (['pk', 'sk'] as const));

/** A key as a page of this list can end on: every attribute a string, the partition the list's, the sort key inside the list. */
function inList(scope: ListScope, key: unknown): key is PageKey {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return false;
  const names: readonly string[] = keyNames(scope);
  const record = key as Record<string, unknown>;
  if (Object.keys(record).length !== names.length || !names.every((n) => typeof record[n] === 'string')) return false;
  const [partition, sort] = [record[names[0]!] as string, record[names[1]!] as string];
  if (partition !== scope.pk || !sort.startsWith(scope.prefix ?? '')) return false;
  return !scope.range || (sort >= scope.range.from && sort <= scope.range.to);
}

export function sealCursor(secret: Uint8Array, scope: ListScope, key: PageKey): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secret, iv).setAAD(associatedData(scope));
  const text = JSON.stringify(Object.fromEntries(keyNames(scope).map((n) => [n, key[n]])));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The key a cursor of this list stands for; anything else is invalid-cursor. */
export function openCursor(secret: Uint8Array, scope: ListScope, cursor: string): PageKey {
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const bytes = Buffer.from(cursor, 'base64url');
  // Node decodes leniently: a changed final character can leave the bytes as they were, so only the canonical spelling is accepted.
  if (bytes.toString('base64url') !== cursor || bytes.length <= 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw invalid();
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  let key: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, iv).setAAD(associatedData(scope)).setAuthTag(tag);
    key = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!inList(scope, key)) throw invalid();
  return key;
}

/**
 * The table's cursor key: read it, or create it with a conditional put on
 * first use; the loser of a race reads the winner's. Not cached.
 */
export async function loadCursorKey(deps: Deps): Promise<Uint8Array> {
  const read = async () => {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: cursorKeyItem, ConsistentRead: true }));
    return Item?.secret as Uint8Array | undefined;
  };
  const existing = await read();
  if (existing) return existing;
  const secret = randomBytes(32);
  try {
    await deps.db.send(
      new PutCommand({ TableName: deps.table, Item: { ...cursorKeyItem, entity: 'config', secret }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return secret;
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
  }
  const winner = await read();
  if (!winner) throw new Error('The cursor key vanished after a conditional put lost');
  return winner;
}

/** One load per table per container; a failed load is forgotten so the next request tries again. */
const keys = new Map<string, Promise<Uint8Array>>();

/** The table's sealing key (the cursor key), loaded once per container; other sealed values derive their own key from it. */
export function cursorKey(deps: Deps): Promise<Uint8Array> {
  let key = keys.get(deps.table);
  if (!key) {
    key = loadCursorKey(deps);
    keys.set(deps.table, key);
    key.catch(() => keys.delete(deps.table));
  }
  return key;
}

/** The next page's cursor, or null at the end of the list. */
export async function encodeCursor(deps: Deps, scope: ListScope, last: PageKey | undefined): Promise<string | null> {
  if (!last) return null;
  return sealCursor(await cursorKey(deps), scope, last);
}

/** Where to start: undefined for the first page, the key a cursor of this list stands for, or invalid-cursor. */
export async function decodeCursor(deps: Deps, scope: ListScope, cursor: string | undefined): Promise<PageKey | undefined> {
  if (!cursor) return undefined;
  return openCursor(await cursorKey(deps), scope, cursor);
}

/** An item's (or a last evaluated key's) key as the list's cursors carry it. */
export const pageKey = (scope: ListScope, item: Record<string, unknown> | undefined): PageKey | undefined =>
  item && (Object.fromEntries(keyNames(scope).map((n) => [n, String(item[n])])) as PageKey);
