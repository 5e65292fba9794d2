import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailMessage } from '../events/outbox.js';

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

export function fileMailer(dir: string, from: string): Mailer {
  mkdirSync(dir, { recursive: true });
  return {
    async send(message) {
      const lines = [
        `Message-ID: <${headerValue(message.id)}@agency-api.local>`,
        `Date: ${new Date().toUTCString()}`,
        `From: ${headerValue(from)}`,
        `To: ${headerValue(message.to)}`,
        `Subject: ${headerValue(message.subject)}`,
        `X-Template: ${headerValue(message.template)}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        message.text,
        '',
      ];
      writeFileSync(join(dir, `${message.id}.eml`), lines.join('\n'));
    },
  };
}

export function sesMailer(from: string, client = new SESv2Client({})): Mailer {
  return {
    async send(message) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: headerValue(from),
          Destination: { ToAddresses: [headerValue(message.to)] },
          Content: { Simple: { Subject: { Data: headerValue(message.subject) }, Body: { Text: { Data: message.text } } } },
          EmailTags: [{ Name: 'template', Value: message.template }],
        }),
      );
    },
  };
}

/** MAILBOX_DIR set (the local stack): files; otherwise SES from EMAIL_FROM. */
export function mailerFromEnv(env: NodeJS.ProcessEnv = process.env): Mailer {
  const from = env.EMAIL_FROM || 'Agency API <no-reply@agency-api.local>';
  return env.MAILBOX_DIR ? fileMailer(env.MAILBOX_DIR, from) : sesMailer(from);
}
