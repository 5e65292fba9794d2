import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, Billing, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectLockRetention, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DOCUMENT_EXPIRIES } from '../functions/core/documents/kinds.js';
import { TABLE_SCHEMA } from '../functions/core/platform/table.js';
import { QUEUES } from './queues.js';
import { documentsBucketName, evidenceBucketName, type StageConfig } from './stage.js';

/** The table and the queues every family shares. */
export class DataStack extends Stack {
  readonly table: TableV2;
  readonly queues: Record<string, Queue> = {};
  /** Every document kind, a key prefix each (functions/core/documents/kinds.ts). */
  readonly documents: Bucket;
  /** Where the stream relay parks a batch it could not move after its retries. */
  readonly relayFailures: Queue;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, props);
    const keep = props.config.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The outbox is read from the stream (webhooks issue).
      dynamoStream: StreamViewType.NEW_IMAGE,
      deletionProtection: props.config.stage === 'prod',
      removalPolicy: keep,
      globalSecondaryIndexes: TABLE_SCHEMA.globalIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });

    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: keep,
    });
    Validations.of(accessLogs).acknowledge({ id: 'AwsSolutions-S1', reason: 'This is the access log bucket; it does not log itself' });
    // The id and name are those of the bucket when it held only interview reports: changing either replaces the bucket.
    this.documents = new Bucket(this, 'Reports', {
      bucketName: documentsBucketName(props.config.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'reports/',
      // Kinds that expire (unattached request uploads: a day). The bucket is versioned: the expired version goes a day after it too.
      lifecycleRules: DOCUMENT_EXPIRIES.map(({ id, prefix, days }) => ({
        id,
        prefix,
        expiration: Duration.days(days),
        noncurrentVersionExpiration: Duration.days(days),
      })),
      removalPolicy: keep,
    });

    // Registration checks' evidence, write-once: Object Lock in compliance mode, so no one (the account's root included) deletes
    // or overwrites an object before its retention ends; each record also carries its own date.
    const lockDays = 365 * props.config.evidenceRetentionYears + Math.ceil(props.config.evidenceRetentionYears / 4);
    new Bucket(this, 'Evidence', {
      bucketName: evidenceBucketName(props.config.stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention: ObjectLockRetention.compliance(Duration.days(lockDays)),
      // Retention's end: a week after the longest lock the current version expires (a delete marker), the version itself a
      // day later (the lock has ended, so S3 may), then the marker left alone. The lock still forbids anything earlier.
      lifecycleRules: [
        { id: 'evidence-retention', expiration: Duration.days(lockDays + 7), noncurrentVersionExpiration: Duration.days(1) },
        { id: 'evidence-delete-markers', expiredObjectDeleteMarker: true },
      ],
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'evidence/',
      // Locked objects outlive any stack: the bucket is kept whatever the stage.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.relayFailures = new Queue(this, 'relay-failures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.relayFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is the on-failure destination of the outbox stream relay: a dead-letter queue itself',
    });

    for (const def of QUEUES) {
      const deadLetterQueue = new Queue(this, `${def.id}-dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      // A dead-letter queue has no dead-letter queue of its own.
      Validations.of(deadLetterQueue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason: 'This queue is the dead-letter queue of another queue',
      });
      const queue = new Queue(this, `${def.id}-queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(4),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
      });
      this.queues[def.id] = queue;
      // Anything in a dead-letter queue needs a person; a stuck queue needs one too.
      new Alarm(this, `${def.id}-dlq-depth`, {
        alarmDescription: `Messages in the ${def.id} dead-letter queue`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      new Alarm(this, `${def.id}-oldest-message`, {
        alarmDescription: `The oldest message in the ${def.id} queue is older than ${def.maxAgeSeconds} s`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: def.maxAgeSeconds,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
    new Alarm(this, 'relay-failures-depth', {
      alarmDescription: 'Outbox stream batches the relay gave up on',
      metric: this.relayFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
