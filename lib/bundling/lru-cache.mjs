// Stands in for mnemonist/lru-cache in function bundles (see BUNDLE_ALIASES in lib/bundling.ts): the
// DynamoDB client builds an endpoint-discovery cache with it, which this project never turns on. The
// same semantics for what that cache calls (get, set, has, peek, clear), on a Map, without the 7 KB of
// typed arrays and iterator helpers the original brings; test/unit/lru-cache.test.ts runs both side by side.
export default class LRUCache {
  constructor(capacity) {
    if (!(capacity > 0)) throw new Error('LRUCache: capacity should be a positive number');
    this.capacity = capacity;
    this.items = new Map();
  }

  get size() {
    return this.items.size;
  }

  clear() {
    this.items.clear();
  }

  /** Adds or replaces, as the most recently used; the least recently used goes when over capacity. */
  set(key, value) {
    this.items.delete(key);
    this.items.set(key, value);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value);
    return this;
  }

  has(key) {
    return this.items.has(key);
  }

  /** The value, now the most recently used. */
  get(key) {
    if (!this.items.has(key)) return undefined;
    const value = this.items.get(key);
    this.items.delete(key);
    this.items.set(key, value);
    return value;
  }

  /** The value, leaving the order alone. */
  peek(key) {
    return this.items.get(key);
  }
}
