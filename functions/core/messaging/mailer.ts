import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailMessage } from '../events/outbox.js';
import { signedFetch } from '../platform/signed-fetch.js';
import { DEFAULT_EMAIL_FROM } from './sender.js';
import { environment } from '../platform/config.js';

/**
 * Sends an e-mail: through SES (v2 API) in the cloud, or as a file in the
 * local mailbox directory. Sending the same message id twice writes the same
 * file (locally); SES may deliver a retried message twice, which is why the
 * queue consumer is the only sender.
 */
export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

/**
 * A header value on one line: every run of control characters (CR and LF
 * above all) becomes one space. Input validation already refuses them in
 * names; this is the last line of defence, and it strips rather than refuses:
 * a refused message would only go round the queue to the dead-letter queue,
 * while a folded one reaches its reader with no header injected.
 */
export const headerValue = (value: string): string => value.replace(/\p{Cc}+/gu, ' ');

/**
 * The message as MIME (RFC 5322 header, CRLF line ends): plain text, or
 * multipart/mixed with each attachment base64-encoded so its own line ends
 * (an `.ics` needs CRLF) survive every relay.
 */
export function mimeMessage(message: EmailMessage, from: string, date: Date, eol = '\r\n'): string {
  const head = [
    `Message-ID: <${headerValue(message.id)}@agency-api.local>`,
    `Date: ${date.toUTCString()}`,
    `From: ${headerValue(from)}`,
    `To: ${headerValue(message.to)}`,
    `Subject: ${headerValue(message.subject)}`,
    `X-Template: ${headerValue(message.template)}`,
  ];
  const text = ['Content-Type: text/plain; charset=utf-8', '', message.text];
  if (!message.attachments?.length) return [...head, ...text, ''].join(eol);
  const boundary = `=_${message.id.replace(/[^A-Za-z0-9]/g, '')}`;
  const parts = message.attachments.map((a) => [
    `--${boundary}`,
    `Content-Type: ${headerValue(a.content_type)}; name="${quoted(a.filename)}"`,
    `Content-Disposition: attachment; filename="${quoted(a.filename)}"`,
    'Content-Transfer-Encoding: base64',
    '',
    ...(Buffer.from(a.content, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []),
  ]);
  return [
    ...head,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...text,
    ...parts.flat(),
    `--${boundary}--`,
    '',
  ].join(eol);
}

const quoted = (name: string) => headerValue(name).replace(/["\\]/g, '');

export function fileMailer(dir: string, from: string): Mailer {
  mkdirSync(dir, { recursive: true });
  return {
    async send(message) {
      // Local mailbox files keep the LF line ends they always had: people and tests read them.
      writeFileSync(join(dir, `${message.id}.eml`), mimeMessage(message, from, new Date(), '\n'));
    },
  };
}

/** Where SES is reached: `AWS_ENDPOINT_URL_SESV2` when set (as the SDK reads it), else the regional endpoint. */
export interface SesLocation {
  endpoint?: string;
  region: string;
}

export class SesSendError extends Error {}

/** The SES v2 `SendEmail` body (REST-JSON: a raw message's bytes travel base64-encoded). */
export function sendEmailBody(message: EmailMessage, from: string, date: Date) {
  // With attachments, SES takes the MIME message as written here (raw), so the file and the cloud send the same thing.
  const content = message.attachments?.length
    ? { Raw: { Data: Buffer.from(mimeMessage(message, from, date), 'utf8').toString('base64') } }
    : { Simple: { Subject: { Data: headerValue(message.subject) }, Body: { Text: { Data: message.text } } } };
  return {
    FromEmailAddress: headerValue(from),
    Destination: { ToAddresses: [headerValue(message.to)] },
    Content: content,
    EmailTags: [{ Name: 'template', Value: message.template }],
  };
}

/**
 * SES v2 `SendEmail` as one SigV4-signed POST, signed by the SDK's own signer
 * with the SDK's credential chain. The SES client would add ~75 KB to the
 * e-mail sender's bundle for this one call (the benchmark's bundle limit is
 * 250 KB); a test holds this request equal to the client's.
 */
export function sesMailer(from: string, location: SesLocation, credentials: AwsCredentialIdentityProvider = defaultProvider()): Mailer {
  const signer = new SignatureV4({ service: 'ses', region: location.region, credentials, sha256: Sha256 });
  const url = new URL('/v2/email/outbound-emails', location.endpoint ?? `https://email.${location.region}.amazonaws.com`);
  return {
    async send(message) {
      const body = JSON.stringify(sendEmailBody(message, from, new Date()));
      const response = await signedFetch(signer, url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      // Any refusal throws, so the queue tries the message again and then keeps it in the dead-letter queue.
      if (response.status !== 200) throw new SesSendError(`SES SendEmail answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    },
  };
}

/** MAILBOX_DIR set (the local stack): files; otherwise SES from EMAIL_FROM. */
export function mailerFromEnv(env: NodeJS.ProcessEnv = environment()): Mailer {
  const from = env.EMAIL_FROM || DEFAULT_EMAIL_FROM;
  return env.MAILBOX_DIR
    ? fileMailer(env.MAILBOX_DIR, from)
    : sesMailer(from, { endpoint: env.AWS_ENDPOINT_URL_SESV2 || undefined, region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-2' });
}
