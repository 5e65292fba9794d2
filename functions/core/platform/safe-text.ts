/**
 * Names and free text end up in e-mail headers, PDFs, CSV files and other
 * people's screens, so they may not carry characters that break a line where
 * no reader sees one, or that hide or reorder what is shown (design section
 * 4, Validation): C0 and C1 controls (NUL included), bidi embeddings,
 * overrides and isolates, zero-width characters and the byte-order mark, and
 * lone surrogates. Free text (notes, answers, reasons) may hold tabs and line
 * breaks. The API's schemas and the public pages' forms both apply this.
 */

export const HOSTILE_TEXT_MESSAGE = 'Must not contain control or invisible formatting characters';

const INVISIBLE = '\\u200B-\\u200D\\u2060\\u202A-\\u202E\\u2066-\\u2069\\uFEFF';
const IN_NAME = new RegExp(`[\\p{Cc}${INVISIBLE}]`, 'u');
/** Every control but tab (U+0009) and line feed (U+000A). */
const IN_FREE_TEXT = new RegExp(`[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F${INVISIBLE}]`, 'u');

/** A name or other one-line text: no controls at all. */
export const isSafeName = (text: string): boolean => text.isWellFormed() && !IN_NAME.test(text);

/** Free text: tabs and line feeds allowed (normalise CRLF first, see below). */
export const isSafeFreeText = (text: string): boolean => text.isWellFormed() && !IN_FREE_TEXT.test(text);

/** Browsers send a textarea's line breaks as CRLF; stored text uses LF. */
export const normaliseLineBreaks = (text: string): string => text.replace(/\r\n?/g, '\n');

/** What is wrong with a piece of free text typed into a public form, if anything. */
export function freeTextProblem(text: string, maxChars: number): string | undefined {
  if (text.length > maxChars) return `At most ${maxChars} characters`;
  if (!isSafeFreeText(text)) return HOSTILE_TEXT_MESSAGE;
  return undefined;
}
