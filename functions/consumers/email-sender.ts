import { mailerFromEnv } from '../core/messaging/mailer.js';
import type { EmailMessage, HandOverReceipt } from '../core/events/outbox.js';
import { depsFromEnv, type Deps } from '../core/platform/deps.js';
import { recordInviteSent } from '../core/practical-training/invites.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';
import { withCorrelationId } from '../core/platform/correlation.js';
import { emailHandled } from '../core/platform/metrics.js';

/** SQS consumer of the e-mail queue. A message that fails is reported, so SQS retries it and the DLQ keeps it. */
const mailer = mailerFromEnv();
const log = createLogger({ worker: 'email-sender' });

/** What a message's receipt records once the mail service has it (a redelivered message records nothing new). */
const RECEIPTS: Record<HandOverReceipt['kind'], (deps: Deps, receipt: HandOverReceipt) => Promise<unknown>> = {
  'booking-invite': (deps, r) => recordInviteSent(deps, r.client_id, r.invite_id, r.family),
};
let deps: Deps | undefined;

export const handler = sqsBatchHandler(async (messages) => {
  const failed = new Set<string>();
  for (const queued of messages) {
    let template = 'unknown';
    // Each message as the request it comes from, whatever else its batch holds.
    await withCorrelationId(queued.correlationId, async () => {
      try {
        const message = JSON.parse(queued.body) as EmailMessage;
        template = message.template;
        await mailer.send(message);
        if (message.receipt) await RECEIPTS[message.receipt.kind]((deps ??= depsFromEnv()), message.receipt);
        log.info('email sent', { email_id: message.id, template });
        emailHandled(template, 'sent');
      } catch (err) {
        log.error('email failed', { message_id: queued.id, ...errorFields(err) });
        emailHandled(template, 'failed');
        failed.add(queued.id);
      }
    });
  }
  return failed;
}, log);
