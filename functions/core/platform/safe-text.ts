/**
 * Names and free text end up in queues, e-mail headers, PDFs, CSV files and
 * other people's screens, so they may not carry what a queue or an e-mail
 * cannot take or a reader cannot see. One Unicode-property rule says what:
 * controls (`Cc`), format characters (`Cf`: zero-width characters, bidi
 * marks, embeddings and isolates, the byte-order mark, tag characters),
 * line and paragraph separators (`Zl`, `Zp`), noncharacters (U+FFFE, U+FFFF,
 * U+FDD0–U+FDEF and the last two of every plane), and lone surrogates.
 * Free text (notes, answers, reasons) may hold tabs and line feeds. The one
 * allowance: a zero-width joiner or non-joiner between letters of a script
 * that needs them (Devanagari, Persian, ...; never Latin) and a joiner inside an emoji sequence
 * (🧑‍⚕️). Emoji themselves are welcome. The API's schemas and the public
 * pages' forms both apply this.
 */

export const HOSTILE_TEXT_MESSAGE = 'Must not contain control, invisible formatting or noncharacter code points';

const HIDDEN = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Noncharacter_Code_Point}';
const IN_NAME = new RegExp(`[${HIDDEN}]`, 'v');
/** The same, less tab (U+0009) and line feed (U+000A). */
const IN_FREE_TEXT = new RegExp(`[[${HIDDEN}]--[\\t\\n]]`, 'v');
/** The scripts whose spelling needs a zero-width joiner or non-joiner between letters (Arabic and the Brahmic scripts, among others). */
const JOINING = [
  'Arabic',
  'Syriac',
  'Nko',
  'Mongolian',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
]
  .map((script) => `\\p{Script_Extensions=${script}}`)
  .join('');
/** Joiners where a script or an emoji sequence needs them, which the rule above would otherwise refuse. */
const NEEDED_JOINER = new RegExp(
  `(?<=[${JOINING}])[\\u200C\\u200D](?=[${JOINING}])|(?<=\\p{Extended_Pictographic}[\\u{FE0F}\\p{Emoji_Modifier}]?)\\u200D(?=\\p{Extended_Pictographic})`,
  'gu',
);

const withoutNeededJoiners = (text: string): string => text.replace(NEEDED_JOINER, '');

/** A name or other one-line text: no controls at all. */
export const isSafeName = (text: string): boolean => text.isWellFormed() && !IN_NAME.test(withoutNeededJoiners(text));

/** Free text: tabs and line feeds allowed (normalise CRLF first, see below). */
export const isSafeFreeText = (text: string): boolean => text.isWellFormed() && !IN_FREE_TEXT.test(withoutNeededJoiners(text));

/** Browsers send a textarea's line breaks as CRLF; stored text uses LF. */
export const normaliseLineBreaks = (text: string): string => text.replace(/\r\n?/g, '\n');

/** What is wrong with a piece of free text typed into a public form, if anything. */
export function freeTextProblem(text: string, maxChars: number): string | undefined {
  if (text.length > maxChars) return `At most ${maxChars} characters`;
  if (!isSafeFreeText(text)) return HOSTILE_TEXT_MESSAGE;
  return undefined;
}
