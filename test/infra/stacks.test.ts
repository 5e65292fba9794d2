import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { METRICS } from '../../functions/core/platform/metrics.js';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Validations } from 'aws-cdk-lib';
import { FAMILIES, FAMILY_IDS, type FamilyId } from '../../functions/core/platform/families.js';
import { buildApp } from '../../lib/app.js';
import { JOB_ATTEMPTS } from '../../functions/core/jobs/rules.js';
import { QUEUES, SCHEDULES } from '../../lib/queues.js';
import { routesOf } from '../../lib/routes.js';

// Bundling is esbuild's job and is exercised by `cdk synth`; here it would only add minutes.
const newApp = (context: Record<string, unknown> = {}) => new App({ context: { stage: 'test', 'aws:cdk:bundling-stacks': [], ...context } });

// Template.fromStack runs cdk-nag's AwsSolutions pack: any unacknowledged finding throws here.
const built = buildApp(newApp());
const data = Template.fromStack(built.data);
const apis = built.apis.map((stack) => ({ stack, template: Template.fromStack(stack) }));
const apiOf = (family: FamilyId) => apis.find((a) => a.stack.stackName.endsWith(`-${FAMILIES[family].stackName}`))!;

describe('the data stack', () => {
  it('has one table with TTL on `ttl`, point-in-time recovery, on-demand billing and a stream', () => {
    data.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('gives every work queue a dead-letter queue; every other queue is a dead-letter or failure destination', () => {
    const queues = data.findResources('AWS::SQS::Queue');
    const worked = Object.values(queues).filter((q) => q.Properties?.RedrivePolicy);
    expect(worked.map((q) => q.Properties.RedrivePolicy.maxReceiveCount).sort()).toEqual(QUEUES.map((q) => q.maxReceiveCount).sort());
    const dlqIds = new Set(worked.map((q) => q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]));
    const others = Object.keys(queues).filter((id) => !queues[id]!.Properties?.RedrivePolicy && !dlqIds.has(id));
    expect(others).toEqual([expect.stringMatching(/^relayfailures/)]);
  });

  it("alarms on every dead-letter queue's depth and every queue's oldest message", () => {
    const alarms = Object.values(data.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const depth = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    const age = alarms.filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage');
    expect(depth).toHaveLength(QUEUES.length + 1);
    expect(depth.every((a) => a.Threshold === 0 && a.ComparisonOperator === 'GreaterThanThreshold')).toBe(true);
    expect(age.map((a) => a.Threshold).sort((x, y) => x - y)).toEqual(QUEUES.map((q) => q.maxAgeSeconds).sort((x, y) => x - y));
  });

  it('keeps documents in a private, encrypted, versioned bucket with access logs, under the id and name it had when it held only reports', () => {
    const buckets = data.findResources('AWS::S3::Bucket', { Properties: { VersioningConfiguration: { Status: 'Enabled' } } });
    expect(Object.keys(buckets).sort()).toEqual([expect.stringMatching(/^Evidence[0-9A-F]{8}$/), expect.stringMatching(/^Reports[0-9A-F]{8}$/)]);
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: { 'Fn::Join': ['', ['agency-test-reports-', { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]] },
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: Match.objectLike({ BlockPublicAcls: true, RestrictPublicBuckets: true }),
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'reports/' }),
    });
  });

  it('expires request uploads never attached after a day (and their old versions), and no other document', () => {
    const [bucket] = Object.entries(data.findResources('AWS::S3::Bucket', { Properties: { VersioningConfiguration: { Status: 'Enabled' } } }))
      .filter(([id]) => id.startsWith('Reports'))
      .map(([, b]) => b);
    expect(bucket!.Properties.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'expire-request-uploads',
        Prefix: 'portal-v2/request-upload/',
        ExpirationInDays: 1,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
        Status: 'Enabled',
      },
    ]);
  });
});

describe('registration-check evidence', () => {
  it('is a write-once bucket: Object Lock in compliance mode for the configured years (6 by default), private, encrypted, logged and kept', () => {
    const bucket = Object.entries(data.findResources('AWS::S3::Bucket')).find(([id]) => id.startsWith('Evidence'))?.[1] as
      { Properties: Record<string, unknown>; DeletionPolicy: string } | undefined;
    expect(bucket!.Properties).toMatchObject({
      BucketName: { 'Fn::Join': ['', ['agency-test-evidence-', { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]] },
      ObjectLockEnabled: true,
      ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 6 * 365 + 2 } } },
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: expect.objectContaining({ BlockPublicAcls: true, RestrictPublicBuckets: true }),
      LoggingConfiguration: expect.objectContaining({ LogFilePrefix: 'evidence/' }),
    });
    expect(bucket!.DeletionPolicy).toBe('Retain');
  });

  it('expires each record once its retention is over: the current version a week after the longest lock, the version itself a day later, then its delete marker', () => {
    const bucket = Object.entries(data.findResources('AWS::S3::Bucket')).find(([id]) => id.startsWith('Evidence'))?.[1] as {
      Properties: { LifecycleConfiguration: { Rules: unknown[] } };
    };
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'evidence-retention', ExpirationInDays: 6 * 365 + 2 + 7, NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' },
      { Id: 'evidence-delete-markers', ExpiredObjectDeleteMarker: true, Status: 'Enabled' },
    ]);
  });

  it('is named, with its retention, to every registration monitoring function and the workers that run checks, which may write and read it but not delete', () => {
    const envs = (t: Template) =>
      Object.values(t.findResources('AWS::Lambda::Function')).map(
        (f) => (f as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment?.Variables ?? {},
      );
    // The family's route functions (all of them read the table); the `$default` function answering unknown routes reads nothing.
    const monitoring = envs(apiOf('registration-monitoring').template).filter((env) => 'TABLE_NAME' in env);
    expect(monitoring.length).toBeGreaterThan(10);
    for (const env of monitoring) expect(env).toMatchObject({ EVIDENCE_BUCKET: expect.anything(), EVIDENCE_RETENTION_YEARS: '6' });
    expect(envs(apiOf('clinical-interview').template).filter((env) => 'EVIDENCE_BUCKET' in env)).toEqual([]);
    const policies = JSON.stringify(apiOf('registration-monitoring').template.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('s3:PutObjectRetention');
    expect(policies).not.toContain('s3:DeleteObject');
  });
});

describe.each(FAMILY_IDS)('the %s stack', (family) => {
  const { template } = apiOf(family);
  it('has one Lambda per route of the route table and one for its $default route, each on Node.js 24 arm64', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    expect(functions).toHaveLength(routesOf(family).length + 1);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
    }
  });

  // A route API Gateway does not have (a known path with another method too) goes to `$default`: 405 with Allow or 404, as problem+json.
  it('routes every entry of the route table, and nothing else but its $default route', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(routeKeys).toEqual([...routesOf(family).map((r) => `${r.method} ${r.path}`), '$default'].sort());
    template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: Match.stringLikeRegexp(`-${family}-unknown-route$`) });
  });

  it('shares one execution role among its functions', () => {
    template.resourceCountIs('AWS::IAM::Role', 1);
  });

  // What the API sends (events, e-mails, jobs, webhook replays) goes through the outbox, written with the change.
  it('sends to no queue itself', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements.flatMap((st: { Action: string | string[] }) => [st.Action].flat()).filter((a) => a.startsWith('sqs:'))).toEqual([]);
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
      expect(Object.keys(fn.Properties.Environment.Variables).filter((name) => name.startsWith('QUEUE_URL_'))).toEqual([]);
    }
  });

  it('tells shared handlers their family through the stage variable', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', StageVariables: { family } });
  });

  it('writes access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
    });
  });

  // CloudFormation refuses a stack over 500; a route costs about five. Split the family before it gets here.
  it('stays under 450 CloudFormation resources', () => {
    expect(Object.keys(template.toJSON().Resources).length).toBeLessThan(450);
  });
});

describe('the workers stack', () => {
  const workers = Template.fromStack(built.workers);
  const logicalId = (stack: Stack, element: unknown) => stack.getLogicalId(element as CfnElement);
  const functionOf = (worker: string) => logicalId(built.workers, built.workers.functions.find((f) => f.node.id === worker)!.fn.node.defaultChild);
  // The workers stack sees a data-stack queue's ARN through the data stack's export of it.
  const queueArnIn = (id: string) => {
    const [output] = Object.values(
      data.findOutputs('*', { Value: { 'Fn::GetAtt': [logicalId(built.data, built.data.queues[id]!.node.defaultChild), 'Arn'] } }),
    );
    return { 'Fn::ImportValue': output!.Export.Name };
  };
  const minutesOf = (expression: string) => {
    const [, n, unit] = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression) ?? [];
    return Number(n) * { minute: 1, hour: 60, day: 1440 }[unit as 'minute'];
  };

  it('relays only new outbox items from the stream, reporting partial failures, with a failure destination', () => {
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['outbox'] } } } }) }] },
    });
  });

  it('counts the items the relay parks from its log, and alarms on the first', () => {
    workers.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: '{ $.message = "outbox item parked" }',
      MetricTransformations: [Match.objectLike({ MetricName: 'OutboxItemsParked', MetricValue: '1' })],
    });
    workers.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'OutboxItemsParked',
      Statistic: 'Sum',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmDescription: Match.stringLikeRegexp('ops -- outbox parked'),
    });
    const relay = workers.toJSON().Resources[functionOf('outbox-stream')].Properties;
    expect(relay.Environment.Variables).toHaveProperty('TABLE_NAME');
  });

  it("gives every worker less time than its queue's visibility timeout, so a message is never handled twice at once", () => {
    for (const def of QUEUES.filter((q) => q.worker)) {
      const fn = workers.toJSON().Resources[functionOf(def.worker!)].Properties;
      expect(fn.Timeout).toBe(def.workerTimeoutSeconds ?? 30);
      expect(fn.Timeout).toBeLessThan(def.visibilityTimeoutSeconds);
      expect(fn.Environment.Variables).toHaveProperty(`QUEUE_URL_${def.id.toUpperCase()}`);
    }
  });

  it('gives each worker its own role with only the table access it needs', () => {
    const roles = Object.keys(workers.findResources('AWS::IAM::Role'));
    const functions = Object.values(workers.findResources('AWS::Lambda::Function'));
    expect(new Set(functions.map((f) => f.Properties.Role['Fn::GetAtt'][0])).size).toBe(functions.length);
    expect(roles).toHaveLength(functions.length);
    const actionsOf = (roleLogicalId: string) =>
      Object.values(workers.findResources('AWS::IAM::Policy'))
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleLogicalId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()));
    const roleOf = (name: string) => roles.find((r) => r.startsWith(`${name}-role`.replace(/-/g, '')))!;
    // Only to record a message's hand-over (an invite becomes `sent`).
    expect(actionsOf(roleOf('email-sender'))).toContain('dynamodb:UpdateItem');
    expect(actionsOf(roleOf('email-sender'))).toContain('ses:SendEmail');
    expect(actionsOf(roleOf('event-fanout'))).toContain('dynamodb:Query');
    expect(actionsOf(roleOf('event-fanout'))).not.toContain('dynamodb:PutItem');
    expect(actionsOf(roleOf('webhook-delivery'))).toContain('dynamodb:PutItem');
  });

  it('lets each worker send to exactly the queues it names: the fast delivery lane to both lanes, the slow lane to itself', () => {
    const sendsOf = (worker: string) => {
      const role = logicalId(built.workers, built.workers.functions.find((f) => f.node.id === worker)!.fn.role!.node.defaultChild);
      return Object.values(workers.findResources('AWS::IAM::Policy'))
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement)
        .filter((st: { Action: string | string[] }) => [st.Action].flat().includes('sqs:SendMessage'))
        .map((st: { Resource: unknown }) => st.Resource);
    };
    for (const def of QUEUES.filter((q) => q.worker)) {
      expect(sendsOf(def.worker!)).toEqual((def.sendsTo ?? []).map(queueArnIn));
    }
    expect(QUEUES.find((q) => q.worker === 'webhook-delivery')!.sendsTo).toEqual(['deliveries', 'deliveries_slow']);
    expect(QUEUES.find((q) => q.worker === 'webhook-delivery-slow')!.sendsTo).toEqual(['deliveries_slow']);
    expect(QUEUES.find((q) => q.worker === 'event-fanout')!.sendsTo).toEqual(['deliveries', 'deliveries_slow']);
  });

  it('feeds each worker from its own queue, at its own batch size and concurrency, with partial batch responses', () => {
    for (const def of QUEUES.filter((q) => q.worker)) {
      const mappings = Object.values(workers.findResources('AWS::Lambda::EventSourceMapping', { Properties: { EventSourceArn: queueArnIn(def.id) } }));
      expect(mappings.map((m) => m.Properties)).toEqual([
        expect.objectContaining({
          FunctionName: { Ref: functionOf(def.worker!) },
          BatchSize: def.batchSize,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: def.maxConcurrency },
        }),
      ]);
    }
  });

  it('runs job tasks from the jobs queue (its dead-letter queue after the last attempt) in the jobs worker, fed by the outbox relay', () => {
    const queue = data.toJSON().Resources[logicalId(built.data, built.data.queues.jobs!.node.defaultChild)].Properties;
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^jobsdlq/), 'Arn'] }, maxReceiveCount: JOB_ATTEMPTS });
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: queueArnIn('jobs'), FunctionName: { Ref: functionOf('jobs') } });
    const fn = workers.toJSON().Resources[functionOf('jobs')].Properties;
    expect(fn.Environment.Variables).toHaveProperty('TABLE_NAME');
    const relay = workers.toJSON().Resources[functionOf('outbox-stream')].Properties;
    expect(relay.Environment.Variables).toHaveProperty('QUEUE_URL_JOBS');
    // Webhook replays, which the API writes to the outbox, go to the fast delivery lane.
    expect(relay.Environment.Variables).toHaveProperty('QUEUE_URL_DELIVERIES');
  });

  it('runs data subject requests on a queue and consumer of their own, the one worker that may delete the files an erasure reaches', () => {
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArnIn('subject_jobs'),
      FunctionName: { Ref: functionOf('subject-jobs') },
    });
    const relay = workers.toJSON().Resources[functionOf('outbox-stream')].Properties;
    expect(relay.Environment.Variables).toHaveProperty('QUEUE_URL_SUBJECT_JOBS');
    const deletesOf = (worker: string) => {
      const role = workers.toJSON().Resources[functionOf(worker)].Properties.Role['Fn::GetAtt'][0];
      return Object.values(workers.findResources('AWS::IAM::Policy'))
        .filter((p) => JSON.stringify(p.Properties.Roles).includes(role))
        .flatMap((p) => p.Properties.PolicyDocument.Statement)
        .filter((st: { Action: string | string[] }) => [st.Action].flat().includes('s3:DeleteObject'))
        .map((st: { Resource: unknown }) => JSON.stringify(st.Resource))
        .join(' ');
    };
    expect(deletesOf('subject-jobs')).toMatch(/interview-reports\/\*/);
    expect(deletesOf('subject-jobs')).toMatch(/portal-v2\/request-file\/\*/);
    expect(deletesOf('jobs')).toBe('');
  });

  it('runs each scheduled worker from exactly one EventBridge rule, at its rate', () => {
    const rules = Object.values(workers.findResources('AWS::Events::Rule')).map((r) => r.Properties);
    expect(rules).toHaveLength(SCHEDULES.length);
    for (const def of SCHEDULES) {
      const fn = functionOf(def.worker);
      const targeting = rules.filter((r) => r.Targets.some((t: { Arn: unknown }) => JSON.stringify(t.Arn) === JSON.stringify({ 'Fn::GetAtt': [fn, 'Arn'] })));
      expect(targeting).toHaveLength(1);
      expect(targeting[0]).toMatchObject({ State: 'ENABLED', Description: def.description });
      expect(minutesOf(targeting[0].ScheduleExpression)).toBe(def.everyMinutes);
      expect(workers.toJSON().Resources[fn].Properties.Timeout).toBe(def.timeoutSeconds);
    }
  });
});

describe('least privilege', () => {
  it('lets the clinical interview functions read interview reports and nothing else in S3', () => {
    const clinical = apiOf('clinical-interview').template;
    const statements = Object.values(clinical.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const s3 = statements.filter((st: { Action: string | string[] }) => [st.Action].flat().some((a) => a.startsWith('s3:')));
    expect(s3).toHaveLength(1);
    expect(s3[0].Action).toBe('s3:GetObject');
    expect(JSON.stringify(s3[0].Resource)).toContain('/interview-reports/*');
  });

  it('lets the portal reach request files and uploads only under their prefixes: read, write (the signed upload form, the attach copy) and delete (a refused upload)', () => {
    const statements = Object.values(apiOf('portal-v2').template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement);
    const s3 = statements.filter((st: { Action: string | string[] }) => [st.Action].flat().some((a) => a.startsWith('s3:')));
    expect([...new Set(s3.flatMap((st: { Action: string | string[] }) => [st.Action].flat()))].sort()).toEqual([
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
    ]);
    for (const st of s3) expect(JSON.stringify(st.Resource)).toMatch(/\/portal-v2\/request-(file|upload)\/\*/);
  });

  it('names the documents bucket only to the functions that reach a document kind', () => {
    for (const family of FAMILY_IDS) {
      const functions = Object.values(apiOf(family).template.findResources('AWS::Lambda::Function'));
      const withBucket = functions.filter((f) => f.Properties.Environment?.Variables?.DOCUMENTS_BUCKET);
      expect(withBucket).toHaveLength(routesOf(family).filter((r) => r.documents?.length).length);
      expect(functions.some((f) => f.Properties.Environment?.Variables?.REPORTS_BUCKET)).toBe(false);
    }
  });
});

describe('deployment settings', () => {
  it('refuses a missing or malformed stage', () => {
    expect(() => buildApp(newApp({ stage: 'Prod!' }))).toThrow(/Context "stage" must match/);
    expect(() => buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [] } }))).toThrow(/stage/);
  });

  it('refuses a domain without a certificate', () => {
    expect(() => buildApp(newApp({ domainName: 'api.example.com' }))).toThrow(/go together/);
  });

  it("gives the facades their parent family's URL where there is no custom domain, and a deprecated family its dates", () => {
    const variables = (family: FamilyId) =>
      Object.values(apiOf(family).template.findResources('AWS::Lambda::Function')).map((f) => f.Properties.Environment?.Variables ?? {});
    expect(variables('practical-training-legacy').every((v) => v.FAMILY_URL_PRACTICAL_TRAINING)).toBe(true);
    expect(variables('services').every((v) => v.FAMILY_URL_CLINICAL_INTERVIEW)).toBe(true);
    // Portal v2's booking request groups link to the course families' invite pages.
    expect(variables('portal-v2').every((v) => v.FAMILY_URL_PRACTICAL_TRAINING && v.FAMILY_URL_VIRTUAL_LIFE_SUPPORT)).toBe(true);
    expect(variables('practical-training').some((v) => Object.keys(v).some((k) => k.startsWith('FAMILY_URL_')))).toBe(false);

    const moved = buildApp(
      newApp({ PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2027-09-30T00:00:00Z', PRACTICAL_TRAINING_LEGACY_BROWNOUTS: '2027-03-02T14:00:00Z/2027-03-02T15:00:00Z' }),
    );
    const legacy = moved.apis.find((a) => a.stackName.endsWith('-PracticalTrainingLegacy'))!;
    const legacyVariables = Object.values(Template.fromStack(legacy).findResources('AWS::Lambda::Function')).map((f) => f.Properties.Environment.Variables);
    expect(legacyVariables.every((v) => v.PRACTICAL_TRAINING_LEGACY_SUNSET_AT === '2027-09-30T00:00:00Z' && v.PRACTICAL_TRAINING_LEGACY_BROWNOUTS)).toBe(true);
    expect(() => buildApp(newApp({ PRACTICAL_TRAINING_LEGACY_SUNSET_AT: '2025-01-01T00:00:00Z' }))).toThrow(/must come after the deprecation/);
  });

  it('pays through Stripe with the secrets named by ARN: only the functions that reach Stripe know where they are and may read them', () => {
    const secretKeyArn = 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:agency/stripe-key-AbCdEf';
    const webhookSecretArn = 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:agency/stripe-webhook-GhIjKl';
    const app = buildApp(newApp({ paymentProvider: 'stripe', stripeSecretArn: secretKeyArn, stripeWebhookSecretArn: webhookSecretArn }));
    const clinical = Template.fromStack(app.apis.find((a) => a.stackName.endsWith('-ClinicalInterview'))!);
    const functions = Object.values(clinical.findResources('AWS::Lambda::Function')).map((f) => f.Properties);
    const withSecrets = functions.filter((f) => f.Environment?.Variables?.STRIPE_SECRET_ARN);
    expect(withSecrets).toHaveLength(2);
    for (const f of withSecrets)
      expect(f.Environment.Variables).toMatchObject({
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_ARN: secretKeyArn,
        STRIPE_WEBHOOK_SECRET_ARN: webhookSecretArn,
      });
    // One role may read the secrets, and only the two functions that reach Stripe use it.
    const readers = Object.entries(clinical.findResources('AWS::IAM::Policy')).filter(([, p]) => JSON.stringify(p).includes('secretsmanager:GetSecretValue'));
    expect(readers).toHaveLength(1);
    expect(JSON.stringify(readers[0]![1].Properties.PolicyDocument)).toContain(webhookSecretArn);
    const readerRole = readers[0]![1].Properties.Roles[0].Ref as string;
    const roleOf = (f: { Role: { 'Fn::GetAtt': string[] } }) => f.Role['Fn::GetAtt'][0];
    expect(new Set(withSecrets.map(roleOf))).toEqual(new Set([readerRole]));
    expect(functions.filter((f) => roleOf(f) === readerRole)).toHaveLength(2);
    const refunds = Object.values(Template.fromStack(app.workers).findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Environment?.Variables?.QUEUE_URL_REFUNDS && !f.Properties.Environment.Variables.QUEUE_URL_EVENTS,
    )!;
    expect(refunds.Properties.Environment.Variables).toMatchObject({ STRIPE_SECRET_ARN: secretKeyArn });
    // Stripe without its secrets' ARNs, or a provider there is not, is refused before anything is built.
    expect(() => buildApp(newApp({ paymentProvider: 'stripe' }))).toThrow(/stripeSecretArn/);
    expect(() => buildApp(newApp({ paymentProvider: 'paypal' }))).toThrow(/must be "stripe" or "test"/);
  });

  it('maps every family under its prefix on a custom domain', () => {
    const app = buildApp(newApp({ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/abc' }));
    const keys = app.apis
      .map((s) => Template.fromStack(s).findResources('AWS::ApiGatewayV2::ApiMapping'))
      .flatMap((r) => Object.values(r).map((m) => m.Properties.ApiMappingKey));
    expect(keys.sort()).toEqual([
      'clinical-interview',
      'portal/v1',
      'portal/v2',
      'practical-training',
      'practical-training-legacy',
      'registration-monitoring',
      'services',
      'virtual-life-support',
    ]);
  });
});

describe('cdk-nag', () => {
  it('is live: an unacknowledged finding fails the synthesis', () => {
    const app = newApp();
    const stack = new Stack(app, 'Careless');
    new Queue(stack, 'NoDlq');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => Template.fromStack(stack)).toThrow(/AwsSolutions-SQS3/);
  });
});

describe('the observability stack', () => {
  const observability = Template.fromStack(built.observability);
  const alarmsOf = (template: Template) => Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);

  it("has one dashboard, and alarms on each family's 5xx rate and p99 latency, each worker's errors and throttles, the outbox lag and table throttles", () => {
    observability.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const names = alarmsOf(observability).map((a) => a.AlarmName as string);
    for (const family of FAMILY_IDS) {
      expect(names).toContain(`agency-test-${family}-5xx-rate`);
      expect(names).toContain(`agency-test-${family}-p99-latency`);
    }
    for (const worker of built.workers.functions.map((f) => f.node.id)) {
      expect(names).toEqual(expect.arrayContaining([`agency-test-worker-${worker}-errors`, `agency-test-worker-${worker}-throttles`]));
    }
    expect(names).toEqual(expect.arrayContaining(['agency-test-outbox-lag', 'agency-test-table-throttles', 'agency-test-lambda-throttles']));
    const rate = alarmsOf(observability).find((a) => a.AlarmName === 'agency-test-clinical-interview-5xx-rate')!;
    expect(JSON.stringify(rate.Metrics)).toContain('100 * errors / requests');
    expect(rate.Threshold).toBe(1);
  });

  it('graphs the business metrics and alarms on failed payments and refunds of every paying family', () => {
    const body = JSON.stringify(observability.findResources('AWS::CloudWatch::Dashboard'));
    for (const metric of Object.values(METRICS)) expect(body).toMatch(new RegExp(`MetricName=\\W+${metric}\\W`));
    expect(body).toContain('AgencyApi/test,service,family,pay_option');
    for (const [name, metric] of [
      ['payment-failures', 'Payments'],
      ['refund-failures', 'Refunds'],
    ]) {
      const alarm = alarmsOf(observability).find((a) => a.AlarmName === `agency-test-${name}`)!;
      expect(alarm.Threshold).toBe(0);
      const metrics = (
        alarm.Metrics as { MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: { Name: string; Value: string }[] } } }[]
      ).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));
      expect(metrics.map((m) => m.Dimensions.find((d) => d.Name === 'family')!.Value).sort()).toEqual(
        expect.arrayContaining(['clinical-interview', 'practical-training', 'virtual-life-support']),
      );
      expect(
        metrics.every(
          (m) => m.MetricName === metric && m.Namespace === 'AgencyApi/test' && m.Dimensions.some((d) => d.Name === 'outcome' && d.Value === 'failed'),
        ),
      ).toBe(true);
    }
  });

  it("notifies the stage's SNS topic from every alarm of every stack when context names one, and none otherwise", () => {
    expect(alarmsOf(observability).every((a) => a.AlarmActions === undefined)).toBe(true);
    const topicArn = 'arn:aws:sns:eu-west-2:123456789012:agency-alarms';
    const app = buildApp(newApp({ alarmTopicArn: topicArn }));
    const stacks = [app.data, app.workers, app.observability, ...app.apis];
    const all = stacks.flatMap((s) => alarmsOf(Template.fromStack(s)));
    expect(all.length).toBeGreaterThan(40);
    expect(all.every((a) => JSON.stringify(a.AlarmActions) === JSON.stringify([topicArn]))).toBe(true);
    expect(() => buildApp(newApp({ alarmTopicArn: 'not-an-arn' }))).toThrow(/alarmTopicArn/);
  });
});
