import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { requireEnv } from '../platform/config.js';
import { DOCUMENTS_BUCKET_ENV } from './kinds.js';
import { objectUrl, s3LocationFromEnv, s3Signer } from './signed-get.js';

/** Deletes one object of the documents bucket (signed DELETE; S3 answers 204 whether or not it was there). */
export async function deleteDocument(key: string, bucket = requireEnv(DOCUMENTS_BUCKET_ENV)): Promise<void> {
  const location = s3LocationFromEnv();
  const url = objectUrl(location, bucket, key);
  const request = {
    method: 'DELETE',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host },
  };
  const { host: _host, ...headers } = (await s3Signer(location.region, defaultProvider()).sign(request)).headers;
  const response = await fetch(url, { method: 'DELETE', headers });
  if (!response.ok) throw new Error(`Deleting a document failed: ${response.status}`);
}
