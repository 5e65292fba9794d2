import { Aws, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { TABLE_SCHEMA } from '../functions/core/platform/table.js';
import { queueUrlEnv } from '../functions/core/platform/config.js';
import { DOCUMENT_KINDS, DOCUMENTS_BUCKET_ENV, type DocumentKindId } from '../functions/core/documents/kinds.js';
import { BUNDLE_ALIASES, BUNDLE_FILES, ESBUILD_BASE, type BundleNeed } from './bundling.js';
import { PROJECT_ROOT } from './routes.js';

export interface ProjectFunctionProps {
  /** Absolute path of the module that exports `handler`. */
  entry: string;
  role: IRole;
  logGroupName: string;
  logRetentionDays: number;
  environment?: Record<string, string>;
  timeout?: Duration;
  /** Files the bundle needs beside it (lib/bundling.ts). */
  needs?: BundleNeed[];
}

/**
 * Every Lambda of the project: Node.js 24 on arm64, one ESM bundle per
 * function (minified, with source maps), its own log group, X-Ray tracing.
 * Grants go to the role, which the functions of one family share.
 */
export class ProjectFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    super(scope, id);
    const logGroup = (this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: props.logGroupName,
      retention: retentionOf(props.logRetentionDays),
    }));
    this.fn = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: props.role,
      logGroup,
      tracing: Tracing.ACTIVE,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: ESBUILD_BASE.target,
        minify: ESBUILD_BASE.minify,
        sourceMap: true,
        mainFields: ESBUILD_BASE.mainFields,
        banner: ESBUILD_BASE.banner,
        externalModules: ESBUILD_BASE.external,
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
        commandHooks: props.needs?.length
          ? {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_input: string, output: string) => props.needs!.flatMap((n) => BUNDLE_FILES[n](output)),
            }
          : undefined,
      },
    });
  }

  /** Sets TABLE_NAME and grants item-level access to the table and its named indexes (no index/* wildcard). */
  bindTable(table: ITable, access: 'read' | 'readwrite'): this {
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    const read = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
    const write = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
    this.fn.addToRolePolicy(
      new PolicyStatement({
        actions: access === 'read' ? read : [...read, ...write],
        resources: [table.tableArn, ...TABLE_SCHEMA.globalIndexes.map((i) => `${table.tableArn}/index/${i.indexName}`)],
      }),
    );
    return this;
  }

  /**
   * Sets DOCUMENTS_BUCKET and grants GetObject under the prefixes of just
   * these document kinds, and PutObject only under those a function writes.
   */
  bindDocuments(bucketName: string, kinds: readonly DocumentKindId[], deletes: readonly DocumentKindId[] = []): this {
    this.fn.addEnvironment(DOCUMENTS_BUCKET_ENV, bucketName);
    const objects = (ks: readonly DocumentKindId[]) => ks.map((k) => `arn:${Aws.PARTITION}:s3:::${bucketName}/${DOCUMENT_KINDS[k].prefix}*`);
    this.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(kinds) }));
    const written = kinds.filter((k) => DOCUMENT_KINDS[k].writtenBy === 'function');
    // PutObject also authorises the browser's POST under a policy this function signed; DeleteObject removes a refused upload.
    if (written.length) this.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:DeleteObject'], resources: objects(written) }));
    const deleted = deletes.filter((k) => !written.includes(k));
    if (deleted.length) this.fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: objects(deleted) }));
    return this;
  }

  /**
   * Sets EVIDENCE_BUCKET and EVIDENCE_RETENTION_YEARS and grants writing
   * (with a retention date: Object Lock) and reading the evidence objects;
   * never deleting them or shortening their retention.
   */
  bindEvidence(bucketName: string, retentionYears: number): this {
    this.fn.addEnvironment('EVIDENCE_BUCKET', bucketName);
    this.fn.addEnvironment('EVIDENCE_RETENTION_YEARS', String(retentionYears));
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectRetention'], resources: [`arn:${Aws.PARTITION}:s3:::${bucketName}/*`] }),
    );
    return this;
  }

  bindQueue(id: string, queue: IQueue): this {
    this.fn.addEnvironment(queueUrlEnv(id), queue.queueUrl);
    queue.grantSendMessages(this.fn);
    return this;
  }
}

function retentionOf(days: number): RetentionDays {
  const allowed = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  const match = allowed.find((d) => Number(d) === days);
  if (match === undefined) throw new Error(`logRetentionDays ${days} is not a CloudWatch retention (${allowed.join(', ')})`);
  return match;
}
