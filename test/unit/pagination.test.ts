import { randomBytes } from 'node:crypto';
import { openCursor, sealCursor } from '../../functions/core/platform/pagination.js';

const secret = randomBytes(32);
const scope = { pk: 'CLIENT#demo-northwind', prefix: 'CANDIDATE#' };
const sk = 'CANDIDATE#000000000042';
const at = (sortKey: string) => ({ pk: scope.pk, sk: sortKey });
const cursor = sealCursor(secret, scope, at(sk));
const refusal = (scope_: typeof scope, c: string) => {
  try {
    openCursor(secret, scope_, c);
    return 'opened';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('sealed list cursors', () => {
  it('open to the key they were sealed with, on the same list', () => {
    expect(openCursor(secret, scope, cursor)).toEqual({ pk: scope.pk, sk });
  });

  it('show no key text, neither as written nor once base64 is undone', () => {
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    for (const text of ['CANDIDATE', '000000000042', 'demo-northwind', 'CLIENT#']) {
      expect(cursor).not.toContain(text);
      expect(decoded).not.toContain(text);
    }
    // A fresh nonce each time: two cursors to the same place do not match.
    expect(sealCursor(secret, scope, at(sk))).not.toBe(cursor);
  });

  it('refuse every single-byte edit, truncation and extension', () => {
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const edited = Buffer.from(bytes);
      edited[i]! ^= 0x01;
      expect(refusal(scope, edited.toString('base64url'))).toBe('invalid-cursor');
    }
    for (let n = 0; n < cursor.length; n++) expect(refusal(scope, cursor.slice(0, n))).toBe('invalid-cursor');
    expect(refusal(scope, cursor + 'A')).toBe('invalid-cursor');
  });

  it('refuse a changed last character even where base64 would decode it to the same bytes', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // Three lengths, so that the sealed bytes leave 0, 2 and 4 spare bits in the last character.
    for (const key of [sk, `${sk}7`, `${sk}77`]) {
      const sealed = sealCursor(secret, scope, at(key));
      for (const c of alphabet.replace(sealed.at(-1)!, '')) expect(refusal(scope, sealed.slice(0, -1) + c)).toBe('invalid-cursor');
    }
  });

  it('refuse a cursor of another client, another list or another key, and garbage', () => {
    expect(refusal({ ...scope, pk: 'CLIENT#demo-riverside' }, cursor)).toBe('invalid-cursor');
    expect(refusal({ ...scope, prefix: 'REFREQ#' }, cursor)).toBe('invalid-cursor');
    expect(() => openCursor(randomBytes(32), scope, cursor)).toThrow(expect.objectContaining({ code: 'invalid-cursor' }));
    const forged = Buffer.from(JSON.stringify({ pk: scope.pk, sk })).toString('base64url');
    for (const junk of [forged, '', '!!!!', 'a'.repeat(5000), '%00', cursor.replace(/./, '=')]) expect(refusal(scope, junk)).toBe('invalid-cursor');
  });

  it('refuse a well-sealed key outside the list it names', () => {
    expect(refusal(scope, sealCursor(secret, scope, at('BOOKING#000000000001')))).toBe('invalid-cursor');
    expect(refusal(scope, sealCursor(secret, scope, { pk: 'CLIENT#demo-riverside', sk }))).toBe('invalid-cursor');
  });

  describe('of a list read from the index', () => {
    const events = { index: 'gsi1' as const, pk: 'TRAINING_EVENTS#practical-training', range: { from: 'EVENT#2026-12-01', to: 'EVENT#2026-12-31' } };
    const last = { gsi1pk: events.pk, gsi1sk: 'EVENT#2026-12-07T09:00:00.000Z#000000000004', pk: 'CATALOG#practical-training', sk: 'EVENT#000000000004' };

    it('carry both keys, since DynamoDB resumes an index query from the table key and the index key together', () => {
      const sealed = sealCursor(secret, events, last);
      expect(sealed.length).toBeLessThan(400);
      expect(openCursor(secret, events, sealed)).toEqual(last);
    });

    it('refuse another range, the table list of the same partition, and a key outside the range', () => {
      const sealed = sealCursor(secret, events, last);
      expect(refusal({ ...events, range: { ...events.range, to: 'EVENT#2027-01-31' } } as never, sealed)).toBe('invalid-cursor');
      expect(refusal({ pk: events.pk } as never, sealed)).toBe('invalid-cursor');
      expect(refusal(events as never, sealCursor(secret, events, { ...last, gsi1sk: 'EVENT#2027-02-01T09:00:00.000Z#000000000009' }))).toBe('invalid-cursor');
    });
  });
});
