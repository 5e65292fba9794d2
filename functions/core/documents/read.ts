import { requireEnv } from '../platform/config.js';
import { DOCUMENTS_BUCKET_ENV, isKeyOf, type DocumentKindId } from './kinds.js';
import type { ObjectReader } from './signed-get.js';

/** Reads a document through the signed GET (no S3 client in the API bundles). */
export async function readDocument(readObject: ObjectReader, kind: DocumentKindId, key: string, bucket = requireEnv(DOCUMENTS_BUCKET_ENV)): Promise<Buffer> {
  if (!isKeyOf(kind, key)) throw new Error(`${key} is not a key of the ${kind} documents`);
  return readObject(bucket, key);
}
