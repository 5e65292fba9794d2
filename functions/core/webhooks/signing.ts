import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures: `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, keyed by the secret's bytes (`whsec_` + base64).
 * During a rotation's overlap both signatures are sent, separated by a space.
 */

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const keyOf = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

export const sign = (secret: string, id: string, timestamp: number, body: string): string =>
  `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

export const signatureHeader = (secrets: string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => sign(s, id, timestamp, body)).join(' ');

/** What a receiver does (the README shows the same in ten lines): true if any v1 signature matches. */
export function verify(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(sign(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** `whsec_AbCd••••••••`: enough to recognise a secret, not to use it. */
export const secretPrefix = (secret: string): string => `${secret.slice(0, 10)}••••••••`;
