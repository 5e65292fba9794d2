/**
 * Canonical JSON (RFC 8785, JCS, for the values this API holds): keys sorted
 * by UTF-16 code units, no whitespace, numbers and strings as ECMAScript
 * serialises them. The same value gives the same text whatever order its
 * keys were read in: for request hashes, field diffs and evidence digests.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
