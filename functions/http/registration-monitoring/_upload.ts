import { isSafeName } from '../../core/platform/safe-text.js';
import { validationProblem, type FieldError } from '../../middleware/problems.js';

/**
 * The file of an upload: the body itself (`text/csv`), or the part named
 * `file` of a `multipart/form-data` body, with its file name. Anything else
 * is no file at all (undefined).
 */
export function uploadedFile(contentType: string | undefined, body: Buffer | undefined): { bytes: Buffer; name: string | null } | undefined {
  if (!body) return undefined;
  const type = (contentType ?? '').toLowerCase();
  if (!type.startsWith('multipart/form-data')) return { bytes: body, name: null };
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length, next);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd !== -1) {
      const head = part.subarray(0, headEnd).toString('utf8');
      if (/name="file"/i.test(head)) {
        // The part ends with the CRLF before the next delimiter.
        const content = part.subarray(headEnd + 4, part.length - 2);
        return { bytes: content, name: /filename="([^"]*)"/i.exec(head)?.[1] ?? null };
      }
    }
    start = next;
  }
  return undefined;
}

/** Characters a file name may not hold besides control and invisible ones: path separators, and what breaks a quoted header or markup. */
const HOSTILE_IN_FILE_NAME = /[/\\<>"]/;
export const MAX_FILE_NAME = 255;

/**
 * An upload's file name, checked like any name: at
 * most 255 characters, one line, no path separator or hostile character;
 * else a 422 at the field that carried it (`field`). No name is null.
 */
export function checkedFileName(name: string | null | undefined, field: Omit<FieldError, 'detail'>): string | null {
  if (name === null || name === undefined) return null;
  const refuse = (detail: string) => validationProblem([{ ...field, detail } as FieldError]);
  if (name.trim() === '') throw refuse('A file name, if given, must not be blank');
  if (name.length > MAX_FILE_NAME) throw refuse(`A file name has at most ${MAX_FILE_NAME} characters`);
  if (!isSafeName(name) || HOSTILE_IN_FILE_NAME.test(name) || name === '.' || name === '..') {
    throw refuse('A file name must not contain a path separator, < > or ", or control or invisible characters');
  }
  return name;
}
