import { Aws, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { TABLE_SCHEMA } from '../functions/core/table.js';
import { queueUrlEnv } from './queues.js';
import { PROJECT_ROOT } from './routes.js';

export interface ProjectFunctionProps {
  /** Absolute path of the module that exports `handler`. */
  entry: string;
  role: IRole;
  logGroupName: string;
  logRetentionDays: number;
  environment?: Record<string, string>;
  timeout?: Duration;
  /** Files the bundle reads at run time, copied beside it at synth (see BUNDLE_FILES). */
  files?: (keyof typeof BUNDLE_FILES)[];
}

const modules = join(PROJECT_ROOT, 'node_modules');

/** Shell commands that put files beside a bundle; run by esbuild's after-bundling hook, offline. */
export const BUNDLE_FILES = {
  // pdfkit loads its standard fonts through createRequire and its package's `#standard-fonts/*` import map,
  // which a bundle cannot follow: the font modules go beside the bundle, with the same import map.
  'pdf-fonts': (out: string) => [
    `cp -r "${join(modules, 'pdfkit', 'js', 'standard-fonts')}" "${out}/standard-fonts"`,
    `echo '{"imports":{"#standard-fonts/*":"./standard-fonts/*.cjs"}}' > "${out}/package.json"`,
  ],
  'swagger-ui': (out: string) => [
    `mkdir -p "${out}/swagger-ui"`,
    `cp "${join(modules, 'swagger-ui-dist', 'swagger-ui-bundle.js')}" "${join(modules, 'swagger-ui-dist', 'swagger-ui.css')}" "${out}/swagger-ui/"`,
  ],
};

/**
 * Every Lambda of the project: Node.js 24 on arm64, one ESM bundle per
 * function (minified, with source maps), its own log group, X-Ray tracing.
 * Grants go to the role, which the functions of one family share.
 */
export class ProjectFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      logGroupName: props.logGroupName,
      retention: retentionOf(props.logRetentionDays),
    });
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
        target: 'node24',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        // Some dependencies still call require(); give ESM bundles one.
        banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
        commandHooks: props.files?.length
          ? {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_input: string, output: string) => props.files!.flatMap((f) => BUNDLE_FILES[f](output)),
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

  /** Reads interview reports: GetObject under interview-reports/ only. */
  bindReports(bucketName: string): this {
    this.fn.addEnvironment('REPORTS_BUCKET', bucketName);
    this.fn.addToRolePolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [`arn:${Aws.PARTITION}:s3:::${bucketName}/interview-reports/*`] }),
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
  const match = allowed.find((d) => d === days);
  if (match === undefined) throw new Error(`logRetentionDays ${days} is not a CloudWatch retention (${allowed.join(', ')})`);
  return match;
}
