import { isSafeFreeText, isSafeName } from '../../functions/core/platform/safe-text.js';
import { toQueueJson } from '../../functions/core/platform/queue-text.js';

/** What a name and a piece of free text may hold, and JSON that any queue takes. */

describe('the hidden-text rule', () => {
  it.each([
    ['a noncharacter U+FFFF', 'Ann\uFFFF'],
    ['a noncharacter U+FFFE', 'Ann\uFFFE'],
    ['a noncharacter of U+FDD0–U+FDEF', 'Ann\uFDEF'],
    ['a supplementary plane noncharacter', 'Ann\u{10FFFF}'],
    ['a lone surrogate', 'Ann\uDC00'],
    ['a C0 control', 'Ann\u0007'],
    ['a C1 control', 'Ann\u0085'],
    ['a left-to-right mark', 'Ann\u200E'],
    ['an Arabic letter mark', 'Ann\u061C'],
    ['an isolate', 'Ann\u2066x\u2069'],
    ['an override', 'Ann\u202E'],
    ['a tag character', 'Ann\u{E0067}'],
    ['a zero-width space', 'Ann\u200B'],
    ['a byte-order mark', '\uFEFFAnn'],
    ['a line separator', 'Ann\u2028'],
    ['a paragraph separator', 'Ann\u2029'],
    ['a joiner at the end', 'Ann\u200D'],
    ['a non-joiner between digits', '1\u200C2'],
    ['a joiner between Latin letters, which need none', 'E\u200Dve'],
  ])('refuses %s in a name and in free text', (_, text) => {
    expect(isSafeName(text)).toBe(false);
    expect(isSafeFreeText(text)).toBe(false);
  });

  it.each([
    ['accents', 'Zoë Ørsted-Łukasz'],
    ['an emoji', 'Nurse 🩺'],
    ['an emoji with a skin tone in a joined sequence', 'Nurse 👩🏽\u200D⚕\uFE0F'],
    ['a joiner inside a Devanagari conjunct', 'क्\u200Dष'],
    ['a non-joiner in Persian', 'می\u200Cخواهم'],
    ['Chinese', '护士'],
  ])('accepts %s', (_, text) => {
    expect(isSafeName(text)).toBe(true);
    expect(isSafeFreeText(text)).toBe(true);
  });

  it('lets free text, and not a name, hold tabs and line feeds', () => {
    expect(isSafeFreeText('one\ttwo\nthree')).toBe(true);
    expect(isSafeName('one\ttwo')).toBe(false);
    expect(isSafeFreeText('one\rtwo')).toBe(false);
  });
});

describe('queue JSON', () => {
  it('is printable ASCII that parses to the same value, whatever the text', () => {
    const value = { name: 'Zoë 🩺 护士', odd: '\uFFFF\u2028', lone: '\uD83E', quote: '"\\' };
    const text = toQueueJson(value);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
