import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { requireEnv, environment } from '../platform/config.js';
import { DomainError } from '../platform/errors.js';
import { withoutSdkLogging } from '../platform/sdk.js';
import { DOCUMENT_KINDS, DOCUMENTS_BUCKET_ENV, isKeyOf, sniffType, type DocumentKindId } from './kinds.js';

/** Stores documents (the operator CLI; functions that write a kind). Reads go through read.ts. */

// Locally (AWS_ENDPOINT_URL_S3 set) the emulator wants path-style addresses.
export const createS3Client = (): S3Client => withoutSdkLogging(new S3Client({ forcePathStyle: Boolean(environment().AWS_ENDPOINT_URL_S3) }));

const TYPE_NAMES: Record<string, string> = { 'application/pdf': 'a PDF file' };

/** Refuses a body that cannot be a document of the kind (type by its leading bytes, size); `what` names it ("The report"). */
export function requireDocument(kind: DocumentKindId, body: Buffer, what: string): void {
  const { maxBytes, accepts } = DOCUMENT_KINDS[kind];
  if (!sniffType(kind, body))
    throw new DomainError('invalid-state', `${what} must be ${accepts.map((a) => TYPE_NAMES[a.contentType] ?? a.contentType).join(' or ')}`);
  if (body.length > maxBytes) throw new DomainError('invalid-state', `${what} must be at most ${maxBytes} bytes`);
}

/** Stores a document of a kind under its key; `what` names it in a refusal ("The report"). */
export async function attachDocument(
  s3: S3Client,
  kind: DocumentKindId,
  key: string,
  body: Buffer,
  what: string,
  bucket = requireEnv(DOCUMENTS_BUCKET_ENV),
): Promise<void> {
  if (!isKeyOf(kind, key)) throw new Error(`${key} is not a key of the ${kind} documents`);
  requireDocument(kind, body, what);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: sniffType(kind, body) }));
}
