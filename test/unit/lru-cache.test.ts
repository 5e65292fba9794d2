import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * The LRU cache bundles use instead of mnemonist's (lib/bundling.ts) behaves
 * as mnemonist's does for every call the SDK's endpoint cache makes: the
 * same operations on both, with evictions, give the same answers.
 */

type Lru = { get(k: string): unknown; set(k: string, v: unknown): unknown; has(k: string): boolean; peek(k: string): unknown; clear(): void; size: number };

it('answers as mnemonist/lru-cache does, evictions included', async () => {
  const { default: BundledLru } = (await import(pathToFileURL(join(PROJECT_ROOT, 'lib', 'bundling', 'lru-cache.mjs')).href)) as { default: new (capacity: number) => Lru };
  const ours = new BundledLru(3);
  // What the SDK's endpoint cache imports (a CommonJS module).
  const MnemonistLru = createRequire(import.meta.url)('mnemonist/lru-cache') as new (capacity: number) => Lru;
  const theirs = new MnemonistLru(3);
  // A fixed pseudo-random walk over 5 keys, so that evictions and re-reads interleave.
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let i = 0; i < 500; i++) {
    const key = `k${next(5)}`;
    const op = next(i % 97 === 96 ? 5 : 4);
    const call = (c: Lru) => (op === 0 ? (c.set(key, i), null) : op === 1 ? c.get(key) : op === 2 ? c.has(key) : op === 3 ? c.peek(key) : c.clear());
    expect([call(ours), ours.size]).toEqual([call(theirs), theirs.size]);
  }
  // Capacity 3: the least recently used (set or got, not peeked) goes first.
  const lru = new BundledLru(3);
  ['a', 'b', 'c'].forEach((k) => lru.set(k, k));
  lru.get('a');
  lru.peek('b');
  lru.set('d', 'd');
  expect(['a', 'b', 'c', 'd'].map((k) => lru.has(k))).toEqual([true, false, true, true]);
});
