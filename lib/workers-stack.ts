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
import { ProjectFunction } from './project-function.js';
import { QUEUES, queueUrlEnv } from './queues.js';
import { PROJECT_ROOT } from './routes.js';
import type { StageConfig } from './stage.js';

export interface WorkersStackProps extends StackProps {
  config: StageConfig;
  table: ITableV2;
  queues: Record<string, Queue>;
  relayFailures: Queue;
}

/**
 * The asynchronous side: the outbox relay on the table's stream, and one
 * SQS-fed Lambda per queue that has a worker (lib/queues.ts).
 */
export class WorkersStack extends Stack {
  readonly functions: ProjectFunction[] = [];

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { config } = props;
    const logPrefix = `/aws/lambda/agency-${config.stage}-worker`;
    // Each worker has its own role: it gets exactly the queues, table access and services it uses.
    const worker = (name: string, timeout = Duration.seconds(30)) => {
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
        entry: join(PROJECT_ROOT, 'functions', 'workers', `${name}.ts`),
        role,
        logGroupName,
        logRetentionDays: config.logRetentionDays,
        timeout,
        environment: { SERVICE_TIME_ZONE: config.serviceTimeZone, STAGE: config.stage },
      });
      Validations.of(role).acknowledge(
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${logGroupName}:*]`,
          reason: 'Log stream names are made at run time; the wildcard covers only this worker\'s own log group.',
        },
        { id: 'AwsSolutions-IAM5[Resource::*]', reason: 'X-Ray segment writes and DynamoDB ListStreams have no resource-level permissions.' },
      );
      this.functions.push(fn);
      return fn;
    };

    // New outbox items only: the filter keeps every other write of the table away from the relay.
    const relay = worker('outbox-stream').bindQueue('events', props.queues.events!).bindQueue('emails', props.queues.emails!);
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
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { entity: { S: FilterRule.isEqual('outbox') } } } }),
        ],
      }),
    );

    // Reference requests expire on time even when nobody looks at them.
    const expiry = worker('reference-expiry', Duration.minutes(2)).bindTable(props.table, 'readwrite');
    new Rule(this, 'reference-expiry-schedule', {
      description: 'Expire reference requests whose time is up',
      schedule: Schedule.rate(Duration.minutes(15)),
      targets: [new LambdaFunction(expiry.fn, { retryAttempts: 2 })],
    });

    for (const def of QUEUES.filter((q) => q.worker)) {
      const fn = worker(def.worker!, Duration.seconds(def.workerTimeoutSeconds ?? 30));
      if (def.table) fn.bindTable(props.table, def.table);
      // A worker knows its own queue's URL (to reschedule a message) and the queues it feeds.
      fn.fn.addEnvironment(queueUrlEnv(def.id), props.queues[def.id]!.queueUrl);
      for (const target of def.sendsTo ?? []) fn.bindQueue(target, props.queues[target]!);
      fn.fn.addEventSource(
        new SqsEventSource(props.queues[def.id]!, { batchSize: def.batchSize, reportBatchItemFailures: true, maxConcurrency: def.maxConcurrency }),
      );
      if (def.id === 'emails') {
        if (config.emailFrom) fn.fn.addEnvironment('EMAIL_FROM', config.emailFrom);
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
