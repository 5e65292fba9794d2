import { createHash } from 'node:crypto';

/**
 * The person a data subject request is about, known by an e-mail address
 * matched without regard to case. Jobs, queue messages, audit records and
 * events carry only the address's hash: an item is the person's when one of
 * the addresses in it hashes the same, so the address itself is never stored
 * to find them.
 */

export const normaliseAddress = (address: string): string => address.trim().toLowerCase();

/** SHA-256 of the address in lower case, hex. */
export const subjectHash = (address: string): string => createHash('sha256').update(normaliseAddress(address)).digest('hex');

// Loose on purpose: anything that could be an address is hashed and compared; only an exact hash match counts.
const ADDRESSES = /[^\s"'<>()[\]{},;:\\]+@[^\s"'<>()[\]{},;:\\]+/g;

/** Does this text carry the address (in JSON, an e-mail, a calendar entry)? */
export const textMentions = (text: string, hash: string): boolean => [...text.matchAll(ADDRESSES)].some((m) => subjectHash(m[0]) === hash);

/** Does any string anywhere in this value carry the address? */
export function mentions(value: unknown, hash: string): boolean {
  if (typeof value === 'string') return value.includes('@') && textMentions(value, hash);
  if (Array.isArray(value)) return value.some((v) => mentions(v, hash));
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) return Object.values(value).some((v) => mentions(v, hash));
  return false;
}
