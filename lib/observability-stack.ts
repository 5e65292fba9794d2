import { Aspects, Duration, Stack, type IAspect, type StackProps } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import { FAMILIES, FAMILY_IDS, tokenFamilyOf } from '../functions/core/platform/families.js';
import { METRICS, metricsNamespace } from '../functions/core/platform/metrics.js';
import type { ApiStack } from './api-stack.js';
import type { ProjectFunction } from './project-function.js';
import type { StageConfig } from './stage.js';

/**
 * What a platform engineer watches: one CloudWatch dashboard for the stage,
 * and the alarms that call a person (docs/operations.md, "Alarms", says what
 * each means and what mends it). The queues' own alarms (dead-letter depth,
 * oldest message, parked outbox items) live beside their queues; every alarm
 * of the app notifies the stage's SNS topic when context `alarmTopicArn`
 * names one.
 */

export interface ObservabilityStackProps extends StackProps {
  config: StageConfig;
  apis: ApiStack[];
  table: ITableV2;
  queues: Record<string, Queue>;
  workers: ProjectFunction[];
}

const FIVE_MINUTES = Duration.minutes(5);
/** 5xx answers above this share of a family's requests (over five minutes, with at least MIN_REQUESTS) call a person. */
export const SERVER_ERROR_RATE_PERCENT = 1;
const MIN_REQUESTS = 20;
/** A family whose p99 latency stays above this for 15 minutes calls a person. */
export const P99_LATENCY_MS = 3000;
/** The outbox relay running this far behind the table's stream calls a person: events, e-mails and refunds wait. */
export const OUTBOX_LAG_SECONDS = 120;

export class ObservabilityStack extends Stack {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityStackProps) {
    super(scope, id, props);
    const { config } = props;
    const alarm = (name: string, description: string, metric: IMetric, threshold: number, evaluationPeriods = 1) =>
      new Alarm(this, name, {
        alarmName: `agency-${config.stage}-${name}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `agency-${config.stage}` });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: `# Agency booking API (${config.stage})\nAlarms and what mends them: docs/operations.md, "Alarms".`, width: 24, height: 2 }),
    );

    for (const stack of props.apis) {
      const family = stack.family;
      const title = FAMILIES[family].title;
      const api = stack.api;
      const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
      const serverErrors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
      const clientErrors = api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' });
      const p99 = api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
      const errorRate = new MathExpression({
        expression: `IF(requests >= ${MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: FIVE_MINUTES,
        label: '5xx %',
      });
      alarm(
        `${family}-5xx-rate`,
        `${title}: more than ${SERVER_ERROR_RATE_PERCENT} % of requests answered 5xx over five minutes`,
        errorRate,
        SERVER_ERROR_RATE_PERCENT,
      );
      alarm(`${family}-p99-latency`, `${title}: p99 latency above ${P99_LATENCY_MS} ms for 15 minutes`, p99, P99_LATENCY_MS, 3);
      this.dashboard.addWidgets(
        new GraphWidget({ title: `${title}: requests, 4xx, 5xx`, left: [requests, clientErrors, serverErrors], width: 12 }),
        new GraphWidget({ title: `${title}: latency p50 / p99 (ms)`, left: [api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }), p99], width: 12 }),
      );
    }

    for (const worker of props.workers) {
      const name = worker.node.id;
      alarm(
        `worker-${name}-errors`,
        `The ${name} worker failed (its messages are retried, then kept in its dead-letter queue)`,
        worker.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        0,
      );
      alarm(
        `worker-${name}-throttles`,
        `The ${name} worker was throttled: raise the account's concurrency or lower its queue's maxConcurrency`,
        worker.fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        0,
      );
    }
    const relay = props.workers.find((w) => w.node.id === 'outbox-stream');
    if (relay) {
      const lag = relay.fn.metric('IteratorAge', { period: FIVE_MINUTES, statistic: 'Maximum' });
      alarm(
        'outbox-lag',
        `The outbox relay runs more than ${OUTBOX_LAG_SECONDS} s behind the table's stream: events, e-mails and refunds wait`,
        lag,
        OUTBOX_LAG_SECONDS * 1000,
        2,
      );
      this.dashboard.addWidgets(new GraphWidget({ title: 'Outbox relay lag (ms)', left: [lag], width: 12 }));
    }
    // Every Lambda of the account and region: the API functions' throttles show as 5xx too, but this names the cause.
    alarm(
      'lambda-throttles',
      'Lambda functions of this account and region were throttled',
      new Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', period: FIVE_MINUTES, statistic: 'Sum' }),
      0,
    );
    const throttled = new Metric({
      namespace: 'AWS/DynamoDB',
      metricName: 'ThrottledRequests',
      dimensionsMap: { TableName: props.table.tableName },
      period: FIVE_MINUTES,
      statistic: 'Sum',
    });
    alarm('table-throttles', 'DynamoDB throttled requests to the table (on-demand capacity ramps up; sustained, it needs a look)', throttled, 0);

    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Workers: errors',
        left: props.workers.map((w) => w.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: w.node.id })),
        width: 12,
      }),
      new GraphWidget({ title: 'Table: throttled requests', left: [throttled], width: 12 }),
      new GraphWidget({
        title: 'Queues: oldest message (s)',
        left: Object.entries(props.queues).map(([id, q]) => q.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum', label: id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Parked outbox items',
        left: [new Metric({ namespace: `AgencyApi/${config.stage}`, metricName: 'OutboxItemsParked', period: FIVE_MINUTES, statistic: 'Sum' })],
        width: 12,
      }),
    );

    this.businessMetrics(config.stage, alarm);

    if (config.alarmTopicArn) Aspects.of(scope).add(new NotifyTopic(config.alarmTopicArn));
  }

  /**
   * The functions' own metrics (functions/core/platform/metrics.ts, EMF):
   * graphs by a SEARCH over each metric's dimensions, and alarms on failed
   * payments and refunds summed over the families that take them (an alarm
   * cannot SEARCH, so it names each family's metric).
   */
  private businessMetrics(stage: string, alarm: (name: string, description: string, metric: IMetric, threshold: number) => Alarm) {
    const namespace = metricsNamespace(stage);
    const search = (metric: string, dimensions: string[], label: string, statistic = 'Sum') =>
      new MathExpression({
        expression: `SEARCH('{${namespace},${['service', ...dimensions].join(',')}} MetricName="${metric}"', '${statistic}', 300)`,
        label,
        period: FIVE_MINUTES,
      });
    const graph = (title: string, ...metrics: IMetric[]) => new GraphWidget({ title, left: metrics, width: 12 });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '## Business metrics\nCounted by the functions as they happen (docs/operations.md, "Observability").', width: 24, height: 1 }),
      graph(
        'Holds and bookings by family and pay option',
        search(METRICS.HoldsCreated, ['family'], 'holds'),
        search(METRICS.BookingsCreated, ['family', 'pay_option'], 'bookings'),
      ),
      graph('Cancellations by family', search(METRICS.BookingsCancelled, ['family'], 'cancellations')),
      graph(
        'Payments and refunds by outcome',
        search(METRICS.Payments, ['family', 'outcome'], 'payments'),
        search(METRICS.Refunds, ['family', 'outcome'], 'refunds'),
      ),
      graph('Webhook attempts by lane and outcome', search(METRICS.WebhookAttempts, ['family', 'lane', 'outcome'], 'attempts')),
      graph('Outbox age at relay (ms, max)', search(METRICS.OutboxAge, ['kind'], 'outbox age', 'Maximum')),
      graph('E-mails by outcome', search(METRICS.Emails, ['template', 'outcome'], 'e-mails')),
      graph('Register checks by outcome', search(METRICS.RegisterChecks, ['family', 'outcome'], 'checks')),
      graph('Job tasks by outcome', search(METRICS.JobTasks, ['kind', 'outcome'], 'tasks')),
    );
    // Families with their own tokens are the ones whose bookings are paid (the others share them).
    const families = FAMILY_IDS.filter((f) => tokenFamilyOf(f) === f);
    const failures = (metric: string, what: string) =>
      new MathExpression({
        expression: families.map((_, n) => `FILL(m${n}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(
          families.map((family, n) => [
            `m${n}`,
            new Metric({
              namespace,
              metricName: metric,
              dimensionsMap: { service: 'agency-api', family, outcome: 'failed' },
              period: FIVE_MINUTES,
              statistic: 'Sum',
            }),
          ]),
        ),
        label: what,
        period: FIVE_MINUTES,
      });
    alarm(
      'payment-failures',
      'Candidate payments failed at the payment provider (a payment method declined after checkout)',
      failures(METRICS.Payments, 'failed payments'),
      0,
    );
    alarm(
      'refund-failures',
      'A refund failed at the payment provider: the candidate has not got their money back and a person must act',
      failures(METRICS.Refunds, 'failed refunds'),
      0,
    );
  }
}

/** Every alarm of the app notifies the stage's topic (context `alarmTopicArn`). */
class NotifyTopic implements IAspect {
  private readonly actions = new Map<Stack, SnsAction>();
  constructor(private readonly topicArn: string) {}

  visit(node: IConstruct): void {
    if (!(node instanceof Alarm)) return;
    const stack = Stack.of(node);
    let action = this.actions.get(stack);
    if (!action) {
      action = new SnsAction(Topic.fromTopicArn(stack, 'AlarmTopic', this.topicArn));
      this.actions.set(stack, action);
    }
    node.addAlarmAction(action);
  }
}
