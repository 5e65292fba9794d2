import { mailerFromEnv } from '../core/messaging/mailer.js';
import type { EmailMessage } from '../core/events/outbox.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';

/** SQS consumer of the e-mail queue. A message that fails is reported, so SQS retries it and the DLQ keeps it. */
const mailer = mailerFromEnv();
const log = createLogger({ service: 'agency-api', worker: 'email-sender' });

export const handler = sqsBatchHandler(async (messages) => {
  const failed = new Set<string>();
  for (const queued of messages) {
    try {
      const message = JSON.parse(queued.body) as EmailMessage;
      await mailer.send(message);
      log.info('email sent', { email_id: message.id, template: message.template });
    } catch (err) {
      log.error('email failed', { message_id: queued.id, ...errorFields(err) });
      failed.add(queued.id);
    }
  }
  return failed;
});
