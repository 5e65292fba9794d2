/** The candidate's and third parties' pages as a browser uses them: forms posted, files sent straight to the bucket. */

export const post = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
export const linkIn = (mail: string, page: string) => new RegExp(`(http://\\S+/${page}/[A-Za-z0-9_-]+)`).exec(mail)![1]!;

/** The upload form the page offers: where it posts, and its hidden fields. */
export function uploadForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form method="post" action="([^"]+)" enctype="multipart\/form-data">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`No upload form in the page:\n${html}`);
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  const fields = Object.fromEntries(
    [...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]),
  );
  return { action: unescape(form[1]!), fields };
}

/** Posts a file as a browser would (multipart, to the bucket), follows the bucket's redirect, and returns the page it lands on. */
export async function upload(html: string, body: Buffer, declared: string) {
  const { action, fields } = uploadForm(html);
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([body], { type: declared }), 'evidence');
  const stored = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
  if (stored.status !== 303) return { bucketStatus: stored.status, bucketBody: await stored.text() };
  const back = await fetch(stored.headers.get('location')!);
  return { bucketStatus: 303, status: back.status, html: await back.text() };
}

export const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2048, 'x'), Buffer.from('\n%%EOF\n')]);
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
