import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mailerFromEnv } from '../core/mailer.js';
import type { EmailMessage } from '../core/outbox.js';
import { createLogger, errorFields } from '../middleware/logger.js';

/** SQS consumer of the e-mail queue. A message that fails is reported, so SQS retries it and the DLQ keeps it. */
const mailer = mailerFromEnv();
const log = createLogger({ service: 'agency-api', worker: 'email-sender' });

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const message = JSON.parse(record.body) as EmailMessage;
      await mailer.send(message);
      log.info('email sent', { email_id: message.id, template: message.template });
    } catch (err) {
      log.error('email failed', { message_id: record.messageId, ...errorFields(err) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
