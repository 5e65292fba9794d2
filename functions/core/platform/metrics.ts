import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { environment } from './config.js';

/**
 * Business and health metrics, as CloudWatch embedded metric format (EMF)
 * lines on stdout (Powertools Metrics): CloudWatch turns the lines of a
 * function's log into metrics; the local stack writes them to its log. Each
 * metric is written when it happens, with its own dimensions (the family and
 * what the metric is about), so nothing waits for a flush and an invocation
 * that fails half-way still counts what it did. Dimensions never carry client
 * ids, e-mail addresses or tokens: they are few, and CloudWatch bills each
 * combination as a metric. LOG_LEVEL=silent (the tests) writes none.
 */
export const metricsNamespace = (stage: string): string => `AgencyApi/${stage}`;

let metrics: Metrics | undefined;
const publisher = () => (metrics ??= new Metrics({ namespace: metricsNamespace(environment().STAGE || 'local'), serviceName: 'agency-api' }));

type Dimensions = Record<string, string>;

function count(name: string, dimensions: Dimensions, value = 1, unit: (typeof MetricUnit)[keyof typeof MetricUnit] = MetricUnit.Count): void {
  if (environment().LOG_LEVEL === 'silent') return;
  const metric = publisher().singleMetric();
  for (const [dimension, v] of Object.entries(dimensions)) metric.addDimension(dimension, v);
  metric.addMetric(name, unit, value);
}

/** The metrics, by name: each the one way its metric is written. */
export const METRICS = {
  HoldsCreated: 'HoldsCreated',
  BookingsCreated: 'BookingsCreated',
  BookingsCancelled: 'BookingsCancelled',
  Payments: 'Payments',
  Refunds: 'Refunds',
  WebhookAttempts: 'WebhookAttempts',
  OutboxAge: 'OutboxAge',
  Emails: 'Emails',
  RegisterChecks: 'RegisterChecks',
  JobTasks: 'JobTasks',
} as const;

export const holdCreated = (family: string) => count(METRICS.HoldsCreated, { family });
export const bookingCreated = (family: string, payOption: string) => count(METRICS.BookingsCreated, { family, pay_option: payOption });
export const bookingCancelled = (family: string) => count(METRICS.BookingsCancelled, { family });
export const paymentSettled = (family: string, outcome: 'succeeded' | 'failed' | 'expired') => count(METRICS.Payments, { family, outcome });
/** `send_error`: the provider could not be reached or refused the request (retried); `failed`: the provider says the refund failed (a person is needed). */
export const refundSettled = (family: string, outcome: 'sent' | 'send_error' | 'settled' | 'failed') => count(METRICS.Refunds, { family, outcome });
export const webhookAttempted = (family: string, lane: string, outcome: 'delivered' | 'failed') => count(METRICS.WebhookAttempts, { family, lane, outcome });
/** How long an outbox item waited between its commit and its relay to a queue. */
export const outboxRelayed = (kind: string, ageMs: number) => count(METRICS.OutboxAge, { kind }, Math.max(0, ageMs), MetricUnit.Milliseconds);
export const emailHandled = (template: string, outcome: 'sent' | 'failed') => count(METRICS.Emails, { template, outcome });
export const registerChecked = (family: string, outcome: string) => count(METRICS.RegisterChecks, { family, outcome });
export const jobTaskRun = (kind: string, outcome: string) => count(METRICS.JobTasks, { kind, outcome });
