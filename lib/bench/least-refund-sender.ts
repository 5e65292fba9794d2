import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { db } from './floor-entry.js';
import { refund } from './least-stripe-function.js';

/**
 * A reference for the bundle figures (lib/bench/bundles.ts), not a function
 * of the product: the least refund sender there can be. Stripe's refund as
 * the least function that takes payments makes it (./least-stripe-function.ts),
 * the ledger entry it settles (DynamoDB), a log line and a metric for each,
 * and, when Stripe fails, the message put out of sight for longer (SQS): the
 * backoff refunds are retried with. No rule of its own.
 */
const sqs = new SQSClient({});
const logger = new Logger({ serviceName: 'least-refund-sender' });
const metrics = new Metrics({ namespace: 'least-refund-sender' });

export const handler = async (event: { Records: { receiptHandle: string; body: string }[] }) => {
  for (const record of event.Records) {
    const sent = await refund().then(
      () => true,
      () => false,
    );
    logger.info('refund', { sent });
    metrics.singleMetric().addMetric(sent ? 'RefundsSent' : 'RefundsFailed', MetricUnit.Count, 1);
    if (sent)
      await db.send(
        new UpdateCommand({ TableName: 'ledger', Key: { pk: record.body }, UpdateExpression: 'SET settled = :t', ExpressionAttributeValues: { ':t': true } }),
      );
    else await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: 'refunds', ReceiptHandle: record.receiptHandle, VisibilityTimeout: 60 }));
  }
};
