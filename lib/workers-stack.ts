import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { join } from 'node:path';
import { OUTBOX_QUEUES, PARKED_LOG_MESSAGE } from '../functions/core/events/outbox.js';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { queueUrlEnv } from '../functions/core/platform/config.js';
import { ProjectFunction } from './project-function.js';
import { QUEUES, SCHEDULES, type WorkerAccess } from './queues.js';
import { PROJECT_ROOT } from './routes.js';
import { documentsBucketName, documentsObjectsFinding, evidenceBucketName, evidenceObjectsFinding, stripeEnvironment, type StageConfig } from './stage.js';
import { DOCUMENT_KINDS } from '../functions/core/documents/kinds.js';

export interface WorkersStackProps extends StackProps {
  config: StageConfig;
  table: ITableV2;
  queues: Record<string, Queue>;
  relayFailures: Queue;
}

/**
 * The asynchronous side: the outbox relay on the table's stream, one
 * SQS-fed Lambda per queue that has a worker and one scheduled Lambda per
 * schedule (both tables in lib/queues.ts).
 */
export class WorkersStack extends Stack {
  readonly functions: ProjectFunction[] = [];

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logPrefix = `/aws/lambda/agency-${config.stage}-worker`;
    // Each worker has its own role: it gets exactly the queues, table access and services it uses.
    const worker = (name: string, timeoutSeconds: number, access: WorkerAccess) => {
      const role = new Role(this, `${name}-role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Execution role of the ${name} worker (${config.stage})`,
      });
      const logGroupName = `${logPrefix}-${name}`;
      role.addToPolicy(
        new PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [`arn:${this.partition}:logs:${this.region}:${this.account}:log-group:${logGroupName}:*`],
        }),
      );
      const fn = new ProjectFunction(this, name, {
        entry: join(PROJECT_ROOT, 'functions', 'consumers', `${name}.ts`),
        role,
        logGroupName,
        logRetentionDays: config.logRetentionDays,
        timeout: Duration.seconds(timeoutSeconds),
        environment: {
          SERVICE_TIME_ZONE: config.serviceTimeZone,
          STAGE: config.stage,
          ...(config.emailFrom ? { EMAIL_FROM: config.emailFrom } : {}),
          ...(config.paymentProvider ? { PAYMENT_PROVIDER: config.paymentProvider } : {}),
          ...(access.stripe ? stripeEnvironment(config) : {}),
        },
      });
      Validations.of(role).acknowledge(
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${logGroupName}:*]`,
          reason: "Log stream names are made at run time; the wildcard covers only this worker's own log group.",
        },
        { id: 'AwsSolutions-IAM5[Resource::*]', reason: 'X-Ray segment writes and DynamoDB ListStreams have no resource-level permissions.' },
      );
      if (access.stripe && config.stripeSecrets) {
        role.addToPolicy(
          new PolicyStatement({
            actions: ['secretsmanager:GetSecretValue'],
            resources: [config.stripeSecrets.secretKeyArn, config.stripeSecrets.webhookSecretArn],
          }),
        );
      }
      if (access.table) fn.bindTable(props.table, access.table);
      if (access.documents?.length) {
        fn.bindDocuments(documentsBucketName(config.stage), access.documents, access.deletes);
        for (const kind of access.documents) {
          Validations.of(role).acknowledge({
            id: `AwsSolutions-IAM5[${documentsObjectsFinding(config.stage, DOCUMENT_KINDS[kind].prefix)}]`,
            reason: `The ${name} worker reaches ${kind} documents under ${DOCUMENT_KINDS[kind].prefix} only.`,
          });
        }
      }
      if (access.evidence) {
        fn.bindEvidence(evidenceBucketName(config.stage), config.evidenceRetentionYears);
        Validations.of(role).acknowledge({
          id: `AwsSolutions-IAM5[${evidenceObjectsFinding(config.stage)}]`,
          reason: `The ${name} worker writes and reads registration-check evidence, keyed per client and check; it cannot delete it.`,
        });
      }
      for (const target of access.sendsTo ?? []) fn.bindQueue(target, props.queues[target]!);
      this.functions.push(fn);
      return fn;
    };

    // New outbox items only: the filter keeps every other write of the table away from the relay.
    // The table: the records of items a queue refused, parked so that the stream goes on past them.
    const relay = worker('outbox-stream', 30, { sendsTo: Object.values(OUTBOX_QUEUES), table: 'readwrite' });
    const parked = new MetricFilter(this, 'outbox-parked-filter', {
      logGroup: relay.logGroup,
      filterPattern: FilterPattern.stringValue('$.message', '=', PARKED_LOG_MESSAGE),
      metricNamespace: `AgencyApi/${config.stage}`,
      metricName: 'OutboxItemsParked',
      metricValue: '1',
      defaultValue: 0,
    });
    new Alarm(this, 'outbox-parked', {
      alarmDescription: 'Outbox items a queue refused were parked: list and send them again with `npm run ops -- outbox parked`',
      metric: parked.metric({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    props.table.grantStreamRead(relay.fn);
    relay.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: 20,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(props.relayFailures),
        filters: [
          // FilterRule's patterns are typed `any` by aws-cdk-lib.
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT') as unknown,
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual('outbox') as unknown } } },
          }),
        ],
      }),
    );

    for (const def of SCHEDULES) {
      const fn = worker(def.worker, def.timeoutSeconds, def);
      new Rule(this, `${def.id}-schedule`, {
        description: def.description,
        schedule: Schedule.rate(Duration.minutes(def.everyMinutes)),
        targets: [new LambdaFunction(fn.fn, { retryAttempts: 2 })],
      });
    }

    for (const def of QUEUES.filter((q) => q.worker)) {
      const fn = worker(def.worker!, def.workerTimeoutSeconds ?? 30, def);
      // A worker knows its own queue's URL too, to reschedule a message.
      fn.fn.addEnvironment(queueUrlEnv(def.id), props.queues[def.id]!.queueUrl);
      fn.fn.addEventSource(
        new SqsEventSource(props.queues[def.id]!, { batchSize: def.batchSize, reportBatchItemFailures: true, maxConcurrency: def.maxConcurrency }),
      );
      if (def.id === 'emails') {
        const domain = config.emailFrom?.split('@')[1];
        fn.fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [`arn:${this.partition}:ses:${this.region}:${this.account}:identity/${domain ?? '*'}`],
          }),
        );
        if (!domain) {
          Validations.of(fn.fn.role!).acknowledge({
            id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
            reason: 'No emailFrom in context: any verified SES identity of the account may send. Set -c emailFrom=… to narrow it.',
          });
        }
      }
    }
  }
}
