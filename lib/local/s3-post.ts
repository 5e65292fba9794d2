import type { IncomingMessage, ServerResponse } from 'node:http';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { checkUploadPolicy } from '../../functions/core/documents/upload-policy.js';

/**
 * The local stack's emulation of S3's browser upload (a POST of
 * multipart/form-data under a signed policy):
 * it checks what S3 checks (signature, deadline, key, redirect, size) and
 * stores the object in the local S3 emulator, whose data lives in the stack's
 * data directory; then it redirects the browser as S3 does, with bucket, key
 * and etag in the query. A refusal is S3's XML error with status 400/403.
 */

/** The path the local server answers uploads on: `/_s3/<bucket>`. */
export const S3_POST_PREFIX = '/_s3/';

// The emulator's own limit: a little above the largest policy range, so an oversize upload reaches the policy check.
const MAX_UPLOAD_BYTES = 11 * 1024 * 1024;

const refuse = (res: ServerResponse, status: number, code: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code.split(':')[0]}</Code><Message>${code}</Message></Error>`);
};

export async function handleS3Post(
  req: IncomingMessage,
  res: ServerResponse,
  s3: S3Client,
  secretOf: (accessKeyId: string) => string | undefined,
): Promise<void> {
  const bucket = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname.slice(S3_POST_PREFIX.length));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD_BYTES) return refuse(res, 400, 'EntityTooLarge');
    chunks.push(chunk as Buffer);
  }
  let form: FormData;
  try {
    form = await new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
  } catch {
    return refuse(res, 400, 'MalformedPOSTRequest');
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) return refuse(res, 400, 'InvalidArgument: the file field is missing');
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name.toLowerCase() === 'policy' ? 'policy' : name] = value;
  const body = Buffer.from(await file.arrayBuffer());
  const refusal = checkUploadPolicy(fields, body.length, bucket, secretOf, new Date());
  if (refusal) return refuse(res, refusal.startsWith('Entity') ? 400 : 403, refusal);
  const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: fields.key!, Body: body, ContentType: file.type || 'application/octet-stream' }));
  const redirect = new URL(fields.success_action_redirect!);
  redirect.searchParams.set('bucket', bucket);
  redirect.searchParams.set('key', fields.key!);
  redirect.searchParams.set('etag', put.ETag ?? '');
  res.writeHead(303, { location: redirect.toString() });
  res.end();
}
