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
