import { mentions, subjectHash, textMentions } from '../../functions/core/data-rights/subject.js';

/** A person is found by the hash of their address, in any case, wherever in an item or a text it stands. */

const hash = subjectHash('Mary.Seacole@Example.org');

it('hashes the address without regard to case or surrounding spaces', () => {
  expect(subjectHash(' mary.seacole@example.ORG ')).toBe(hash);
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  expect(subjectHash('mary.seacole@example.com')).not.toBe(hash);
});

it('finds the address in nested fields, JSON text, e-mail headers and calendar entries, and nowhere else', () => {
  expect(mentions({ candidate: { email: 'MARY.SEACOLE@example.org' } }, hash)).toBe(true);
  expect(mentions([{ a: 1 }, { b: ['x', 'mary.seacole@example.org'] }], hash)).toBe(true);
  expect(textMentions('{"to":"mary.seacole@example.org","subject":"Pay"}', hash)).toBe(true);
  expect(textMentions('To: Mary Seacole <mary.seacole@example.org>\nATTENDEE:mailto:mary.seacole@example.org', hash)).toBe(true);
  // Another address that contains hers, or her name alone, is not her address.
  expect(textMentions('anne.mary.seacole@example.org', hash)).toBe(false);
  expect(mentions({ candidate: { first_name: 'Mary', last_name: 'Seacole', email: null }, document: new Uint8Array([64]) }, hash)).toBe(false);
});
