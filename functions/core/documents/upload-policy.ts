import { createHmac } from 'node:crypto';
import type { AwsCredentialIdentity } from '@smithy/types';

/**
 * S3 browser uploads: a signed POST policy (SigV4) that lets a plain HTML
 * form post one file straight to the documents bucket under one fixed key,
 * within a size range, before a deadline, and then redirects the browser to
 * our page. No API route ever carries the file (decision 17). The local
 * stack's emulation of the endpoint checks policies with `checkUploadPolicy`.
 */

export interface UploadPolicyInput {
  /** Where the form posts: the bucket's endpoint (S3's, or the local stack's emulation). */
  url: string;
  bucket: string;
  key: string;
  minBytes: number;
  maxBytes: number;
  expiresAt: Date;
  redirect: string;
  region: string;
  credentials: AwsCredentialIdentity;
}

export interface UploadForm {
  url: string;
  /** Hidden fields of the form, in order; the file field comes last. */
  fields: Record<string, string>;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export function signingKey(secret: string, day: string, region: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 's3'), 'aws4_request');
}

export function createUploadForm(input: UploadPolicyInput, now: Date): UploadForm {
  const date = amzDate(now);
  const credential = `${input.credentials.accessKeyId}/${date.slice(0, 8)}/${input.region}/s3/aws4_request`;
  const token = input.credentials.sessionToken;
  const policy = Buffer.from(
    JSON.stringify({
      expiration: input.expiresAt.toISOString(),
      conditions: [
        { bucket: input.bucket },
        ['eq', '$key', input.key],
        ['eq', '$success_action_redirect', input.redirect],
        ['content-length-range', input.minBytes, input.maxBytes],
        { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
        { 'x-amz-credential': credential },
        { 'x-amz-date': date },
        ...(token ? [{ 'x-amz-security-token': token }] : []),
      ],
    }),
  ).toString('base64');
  const signature = hmac(signingKey(input.credentials.secretAccessKey, date.slice(0, 8), input.region), policy).toString('hex');
  return {
    url: input.url,
    fields: {
      key: input.key,
      success_action_redirect: input.redirect,
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      'x-amz-credential': credential,
      'x-amz-date': date,
      ...(token ? { 'x-amz-security-token': token } : {}),
      policy,
      'x-amz-signature': signature,
    },
  };
}

type PolicyCondition = Record<string, string> | [string, string, string] | ['content-length-range', number, number];

/**
 * What S3 checks of a POST upload, for the local emulation: the signature
 * with the secret of the credential named, the deadline, and every
 * condition of the policy against the form's fields and the file's size.
 * Returns the refusal, or undefined when S3 would store the object.
 */
export function checkUploadPolicy(
  fields: Record<string, string>,
  size: number,
  bucket: string,
  secretOf: (accessKeyId: string) => string | undefined,
  now: Date,
): string | undefined {
  const policy = fields.policy ?? fields.Policy;
  const credential = fields['x-amz-credential'] ?? '';
  const [accessKeyId, day, region] = credential.split('/');
  const secret = accessKeyId ? secretOf(accessKeyId) : undefined;
  if (!policy || !secret || !day || !region) return 'InvalidAccessKeyId';
  const expected = hmac(signingKey(secret, day, region), policy).toString('hex');
  if (expected !== fields['x-amz-signature']) return 'SignatureDoesNotMatch';
  const { expiration, conditions } = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as { expiration: string; conditions: PolicyCondition[] };
  if (Date.parse(expiration) <= now.getTime()) return 'AccessDenied: policy expired';
  for (const condition of conditions) {
    if (Array.isArray(condition)) {
      if (condition[0] === 'content-length-range') {
        if (size < Number(condition[1]) || size > Number(condition[2])) return size < Number(condition[1]) ? 'EntityTooSmall' : 'EntityTooLarge';
      } else if (condition[0] === 'eq' && fields[String(condition[1]).slice(1)] !== condition[2]) {
        return `AccessDenied: ${condition[1]} does not match the policy`;
      }
      continue;
    }
    for (const [name, value] of Object.entries(condition)) {
      if ((name === 'bucket' ? bucket : fields[name]) !== value) return `AccessDenied: ${name} does not match the policy`;
    }
  }
  return undefined;
}
