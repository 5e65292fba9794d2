import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { ApiMapping, HttpApi, HttpMethod, HttpRoute, HttpRouteKey, HttpStage, LogGroupLogDestination, type DomainName } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { familySpec, familyUrlEnv, type FamilyId } from '../functions/core/platform/families.js';
import { deprecationEnvNames } from '../functions/core/platform/deprecation.js';
import type { BundleNeed } from './bundling.js';
import { ProjectFunction } from './project-function.js';
import { handlerEntry, routesOf, UNKNOWN_ROUTE_HANDLER } from './routes.js';
import { DOCUMENT_KINDS } from '../functions/core/documents/kinds.js';
import { documentsBucketName, documentsObjectsFinding, evidenceBucketName, evidenceObjectsFinding, stripeEnvironment, type StageConfig } from './stage.js';

export interface ApiStackProps extends StackProps {
  family: FamilyId;
  config: StageConfig;
  table: ITableV2;
  domainName?: DomainName;
  /** Other families' HTTP API URLs this family links to (a facade's parent, a deprecated family's successor), where there is no custom domain. */
  familyUrls?: Partial<Record<FamilyId, string>>;
}

/** One API family: its HTTP API and one Lambda per route of the route table. */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly family: FamilyId;
  readonly functions: ProjectFunction[] = [];

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { family, config } = props;
    this.family = family;
    const familyInfo = familySpec(family);
    const logPrefix = `/aws/lambda/agency-${config.stage}-${family}`;

    // One role per family keeps the stack well under CloudFormation's 500 resources.
    const newRole = (id: string, description: string) => {
      const made = new Role(this, id, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description });
      const logStreams = `arn:${this.partition}:logs:${this.region}:${this.account}:log-group:${logPrefix}-*:*`;
      made.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logStreams] }));
      Validations.of(made).acknowledge(
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:${logPrefix}-*:*]`,
          reason: "Log stream names are made at run time; the wildcard covers only this family's own log groups.",
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'X-Ray PutTraceSegments and PutTelemetryRecords have no resource-level permissions.',
        },
      );
      return made;
    };
    const role = newRole('FunctionRole', `Execution role of the ${familyInfo.title} functions (${config.stage})`);
    // Only the functions that reach Stripe may read its secrets: they get a role of their own.
    const stripeSecrets = config.stripeSecrets;
    const stripeRole =
      stripeSecrets && routesOf(family).some((r) => r.stripe)
        ? newRole('StripeFunctionRole', `Execution role of the ${familyInfo.title} functions that reach Stripe (${config.stage})`)
        : undefined;
    if (stripeRole && stripeSecrets) {
      stripeRole.addToPolicy(
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [stripeSecrets.secretKeyArn, stripeSecrets.webhookSecretArn] }),
      );
    }

    this.api = new HttpApi(this, 'Api', {
      apiName: `agency-${config.stage}-${family}`,
      description: familyInfo.title,
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: `/aws/apigateway/agency-${config.stage}-${family}`,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
      // A ceiling for the whole API; per-client limits are enforced in the handlers.
      throttle: config.apiThrottle,
      // Shared handlers (tokens, webhooks, client operations, docs) learn their family from the request.
      stageVariables: { family },
    });

    const baseEnvironment = {
      SERVICE_TIME_ZONE: config.serviceTimeZone,
      STAGE: config.stage,
      ...(props.domainName ? { PUBLIC_ROOT_URL: `https://${props.domainName.name}` } : {}),
      ...Object.fromEntries(Object.entries(props.familyUrls ?? {}).map(([other, url]) => [familyUrlEnv(other as FamilyId), url])),
      // A deprecated family's dates and brownouts, as the stage gives them (checked when the app is built).
      ...Object.fromEntries(deprecationEnvNames(family).flatMap((name) => (config.deprecations[name] ? [[name, config.deprecations[name]]] : []))),
    };
    for (const route of routesOf(family)) {
      const name = route.handler.split('/').pop()!;
      const reachesStripe = route.stripe && stripeRole !== undefined;
      const fn = new ProjectFunction(this, name, {
        entry: handlerEntry(route),
        role: reachesStripe ? stripeRole : role,
        logGroupName: `${logPrefix}-${name}`,
        logRetentionDays: config.logRetentionDays,
        timeout: Duration.seconds(route.timeoutSeconds ?? 10),
        needs: route.needs?.filter((n): n is BundleNeed => n === 'swagger-ui'),
        environment: {
          ...baseEnvironment,
          ...(config.paymentProvider ? { PAYMENT_PROVIDER: config.paymentProvider } : {}),
          ...(reachesStripe ? stripeEnvironment(config) : {}),
          // Calendar invitations written with a booking name the sender as organiser.
          ...(config.emailFrom ? { EMAIL_FROM: config.emailFrom } : {}),
        },
      }).bindTable(props.table, 'readwrite');
      if (route.documents?.length) fn.bindDocuments(documentsBucketName(config.stage), route.documents);
      // A check writes its evidence; downloads and reads re-hash it.
      if (family === 'registration-monitoring') fn.bindEvidence(evidenceBucketName(config.stage), config.evidenceRetentionYears);
      this.functions.push(fn);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${name}-integration`, fn.fn),
      });
    }

    // An HTTP API answers a route it does not have itself ({"message":"Not Found"}, none of our headers), a known
    // path with another method included: the `$default` route answers instead, 405 with Allow or 404 problem+json
    // (a deprecated family's with its deprecation headers, or 410 after the sunset and in brownouts).
    const unknownRoute = new ProjectFunction(this, 'unknown-route', {
      entry: handlerEntry({ handler: UNKNOWN_ROUTE_HANDLER }),
      role,
      logGroupName: `${logPrefix}-unknown-route`,
      logRetentionDays: config.logRetentionDays,
      timeout: Duration.seconds(10),
      environment: baseEnvironment,
    });
    this.functions.push(unknownRoute);
    new HttpRoute(this, 'DefaultRoute', {
      httpApi: this.api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('unknown-route-integration', unknownRoute.fn),
    });

    if (family === 'registration-monitoring') {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[${evidenceObjectsFinding(config.stage)}]`,
        reason: 'The family writes and reads registration-check evidence, keyed per client and check; it cannot delete it.',
      });
    }
    for (const kind of new Set(routesOf(family).flatMap((r) => r.documents ?? []))) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[${documentsObjectsFinding(config.stage, DOCUMENT_KINDS[kind].prefix)}]`,
        reason: `Functions reach ${kind} documents under ${DOCUMENT_KINDS[kind].prefix} only; object keys are per client and object.`,
      });
    }

    Validations.of(this).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorisation is done in each handler: opaque bearer tokens are checked against their SHA-256 hash in DynamoDB ' +
        '(functions/middleware/http-handler.ts), so revocation applies at once; the token routes are public by design.',
    });

    if (props.domainName) {
      new ApiMapping(this, 'Mapping', {
        api: this.api,
        domainName: props.domainName,
        stage,
        apiMappingKey: familyInfo.prefix.slice(1),
      });
    }

    new CfnOutput(this, 'BaseUrl', {
      description: `{base_url} of the ${familyInfo.title}`,
      value: props.domainName ? `https://${props.domainName.name}${familyInfo.prefix}` : stage.url.replace(/\/$/, ''),
    });
  }
}
