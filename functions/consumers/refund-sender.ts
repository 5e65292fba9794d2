import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { RefundTask } from '../core/commerce/refunds.js';
import { sendRefund } from '../core/commerce/refunds.js';
import { stripeClient, stripeSettings } from '../core/commerce/stripe.js';
import { queueUrlEnv, requireEnv, environment } from '../core/platform/config.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { createSqsClient } from '../core/platform/sqs.js';
import { createLogger, errorFields } from '../middleware/logger.js';
import { sqsBatchHandler } from './_batch.js';
import { withCorrelationId } from '../core/platform/correlation.js';
import { refundSettled } from '../core/platform/metrics.js';

/**
 * SQS consumer of the refunds queue: sends each owed refund to the payment
 * provider (core/commerce/refunds.ts). A provider error leaves the message
 * failed and out of sight for longer each time (REFUND_RETRY_BASE_SECONDS,
 * doubling, at most 15 minutes), so SQS retries it with backoff and, after
 * the last receive, keeps it in the dead-letter queue, whose alarm calls a
 * person. The ledger entry stays `pending` meanwhile.
 */
const deps = depsFromEnv();
const sqs = createSqsClient();
const queueUrl = requireEnv(queueUrlEnv('refunds'));
const log = createLogger({ worker: 'refund-sender' });
const baseSeconds = Number(environment().REFUND_RETRY_BASE_SECONDS || 30);
const MAX_BACKOFF_SECONDS = 900;
const stripe = async () => stripeClient(await stripeSettings(), 'worker');

export const handler = sqsBatchHandler(async (messages) => {
  const failed = new Set<string>();
  await Promise.all(
    messages.map((queued) =>
      withCorrelationId(queued.correlationId, async () => {
        let task: RefundTask | undefined;
        try {
          task = JSON.parse(queued.body) as RefundTask;
          await sendRefund(deps, task, stripe);
          log.info('refund sent', { ledger_entry_id: task.id, family: task.ledger.family, amount: task.amount });
          refundSettled(task.ledger.family, 'sent');
        } catch (err) {
          log.error('refund failed', { message_id: queued.id, ledger_entry_id: task?.id, receive_count: queued.receiveCount, ...errorFields(err) });
          failed.add(queued.id);
          refundSettled(task?.ledger.family ?? 'unknown', 'send_error');
          const seconds = Math.min(MAX_BACKOFF_SECONDS, baseSeconds * 2 ** (queued.receiveCount - 1));
          await sqs
            .send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: queued.receiptHandle, VisibilityTimeout: seconds }))
            .catch((e) => log.error('refund retry not scheduled', errorFields(e)));
        }
      }),
    ),
  );
  return failed;
}, log);
