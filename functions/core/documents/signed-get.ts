import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { signedFetch } from '../platform/signed-fetch.js';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { environment } from '../platform/config.js';

/**
 * Reads one S3 object with a SigV4-signed GET, signed by the SDK's own signer
 * with the SDK's credential chain. A function that serves documents needs
 * nothing else from S3, and the S3 client would add ~160 KB to its bundle
 * (the benchmark's bundle limit is 250 KB). Uploads (attach.ts) use the S3
 * client.
 */

export interface S3Location {
  /** `AWS_ENDPOINT_URL_S3` when set (the local emulator: path-style addresses), else the regional endpoint. */
  endpoint?: string;
  region: string;
}

export const s3LocationFromEnv = (env: NodeJS.ProcessEnv = environment()): S3Location => ({
  endpoint: env.AWS_ENDPOINT_URL_S3 || undefined,
  region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-2',
});

export class S3ReadError extends Error {}

/** The S3 SigV4 signer as the S3 client configures it: paths escaped once, the payload hash sent. */
export const s3Signer = (region: string, credentials: AwsCredentialIdentityProvider | AwsCredentialIdentity) =>
  new SignatureV4({ service: 's3', region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: true });

export function objectUrl(location: S3Location, bucket: string, key: string): URL {
  const encodedKey = key.split('/').map(encodeURIComponent).join('/');
  return location.endpoint
    ? new URL(`${location.endpoint.replace(/\/$/, '')}/${bucket}/${encodedKey}`)
    : new URL(`https://${bucket}.s3.${location.region}.amazonaws.com/${encodedKey}`);
}

export function createObjectReader(location: S3Location = s3LocationFromEnv(), credentials: AwsCredentialIdentityProvider = defaultProvider()) {
  const signer = s3Signer(location.region, credentials);

  return async function getObject(bucket: string, key: string): Promise<Buffer> {
    const url = objectUrl(location, bucket, key);
    const response = await signedFetch(signer, url, { method: 'GET' });
    if (response.status !== 200) {
      throw new S3ReadError(`S3 GET ${bucket}/${key} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    }
    return Buffer.from(await response.arrayBuffer());
  };
}

export type ObjectReader = ReturnType<typeof createObjectReader>;
