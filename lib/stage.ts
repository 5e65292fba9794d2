import { Aws } from 'aws-cdk-lib';
import type { Node } from 'constructs';
import { deprecationEnvNames, deprecationSchedules } from '../functions/core/platform/deprecation.js';
import { FAMILY_IDS } from '../functions/core/platform/families.js';

/** Deployment settings read from CDK context, validated before anything is built. */
export interface StageConfig {
  stage: string;
  /** Custom domain for every family (one API mapping per family prefix). */
  domain?: { name: string; certificateArn: string };
  serviceTimeZone: string;
  logRetentionDays: number;
  /** The From address of e-mails; its domain must be a verified SES identity. */
  emailFrom?: string;
  /** The payment page's provider: `stripe` (Stripe Checkout), or `test` (a button that pays at once, for a trial stage). */
  paymentProvider?: 'test' | 'stripe';
  /** With `stripe`: the Secrets Manager secrets holding the API key and the event endpoint's signing secret (their ARNs only). */
  stripeSecrets?: { secretKeyArn: string; webhookSecretArn: string };
  /** An SNS topic every alarm notifies (context `alarmTopicArn`); without it the alarms only show in the console. */
  alarmTopicArn?: string;
  /** Deprecated families' dates and brownout windows, by their environment variable names (context of the same name). */
  deprecations: Record<string, string>;
  /**
   * Each family's API stage ceiling, shared by all its clients (context `apiRateLimit`, `apiBurstLimit`):
   * requests a second and burst. Per-client limits are the handlers'. The defaults carry a family at a
   * peak of ~140 bookings a second (docs/scaling.md); the account's regional API quota is shared by all.
   */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** Years registration-check evidence is locked (context `evidenceRetentionYears`, default 6): the evidence bucket's default retention and each record's. */
  evidenceRetentionYears: number;
}

const positiveInteger = (node: Node, name: string, fallback: number): number => {
  const value = Number(node.tryGetContext(name) ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`Context "${name}" must be a positive integer, got "${node.tryGetContext(name)}"`);
  return value;
};

const STAGE_PATTERN = /^[a-z][a-z0-9-]{1,15}$/;
const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;

/** The environment of a function that reaches Stripe: where its secrets are, never what they are. */
export const stripeEnvironment = (config: StageConfig): Record<string, string> =>
  config.stripeSecrets ? { STRIPE_SECRET_ARN: config.stripeSecrets.secretKeyArn, STRIPE_WEBHOOK_SECRET_ARN: config.stripeSecrets.webhookSecretArn } : {};

export function readStageConfig(node: Node): StageConfig {
  const stage = String(node.tryGetContext('stage') ?? '');
  if (!STAGE_PATTERN.test(stage)) {
    throw new Error(`Context "stage" must match ${STAGE_PATTERN} (for example -c stage=dev), got "${stage}"`);
  }
  const domainName = node.tryGetContext('domainName') as string | undefined;
  const certificateArn = node.tryGetContext('certificateArn') as string | undefined;
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new Error('Context "domainName" and "certificateArn" go together: give both or neither');
  }
  const logRetentionDays = positiveInteger(node, 'logRetentionDays', 30);
  const apiThrottle = { rateLimit: positiveInteger(node, 'apiRateLimit', 1000), burstLimit: positiveInteger(node, 'apiBurstLimit', 2000) };
  if (apiThrottle.burstLimit < apiThrottle.rateLimit)
    throw new Error(`Context "apiBurstLimit" (${apiThrottle.burstLimit}) must be at least "apiRateLimit" (${apiThrottle.rateLimit})`);
  const evidenceRetentionYears = Number(node.tryGetContext('evidenceRetentionYears') ?? 6);
  if (!Number.isInteger(evidenceRetentionYears) || evidenceRetentionYears <= 0 || evidenceRetentionYears > 100) {
    throw new Error(`Context "evidenceRetentionYears" must be a whole number of years from 1 to 100, got "${evidenceRetentionYears}"`);
  }
  const emailFrom = node.tryGetContext('emailFrom') as string | undefined;
  if (emailFrom !== undefined && !/^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/.test(emailFrom)) {
    throw new Error(`Context "emailFrom" must be an e-mail address, got "${emailFrom}"`);
  }
  const paymentProvider = node.tryGetContext('paymentProvider') as string | undefined;
  if (paymentProvider !== undefined && paymentProvider !== 'test' && paymentProvider !== 'stripe') {
    throw new Error(`Context "paymentProvider" must be "stripe" or "test", got "${paymentProvider}"`);
  }
  const secretKeyArn = node.tryGetContext('stripeSecretArn') as string | undefined;
  const webhookSecretArn = node.tryGetContext('stripeWebhookSecretArn') as string | undefined;
  if (paymentProvider === 'stripe') {
    for (const [name, arn] of [
      ['stripeSecretArn', secretKeyArn],
      ['stripeWebhookSecretArn', webhookSecretArn],
    ] as const) {
      if (!arn || !SECRET_ARN.test(arn))
        throw new Error(`Context "${name}" must be the ARN of a Secrets Manager secret when paymentProvider is "stripe", got "${arn ?? ''}"`);
    }
  } else if (secretKeyArn || webhookSecretArn) {
    throw new Error('Context "stripeSecretArn" and "stripeWebhookSecretArn" go with paymentProvider "stripe"');
  }
  const alarmTopicArn = node.tryGetContext('alarmTopicArn') as string | undefined;
  if (alarmTopicArn !== undefined && !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(alarmTopicArn)) {
    throw new Error(`Context "alarmTopicArn" must be the ARN of an SNS topic, got "${alarmTopicArn}"`);
  }
  const deprecations = Object.fromEntries(
    FAMILY_IDS.flatMap(deprecationEnvNames).flatMap((name) => {
      const value = node.tryGetContext(name) as string | undefined;
      return value === undefined ? [] : [[name, String(value)]];
    }),
  );
  // The same check the functions make at cold start, before anything is deployed.
  deprecationSchedules(deprecations);
  return {
    stage,
    emailFrom,
    deprecations,
    paymentProvider: paymentProvider,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(paymentProvider === 'stripe' ? { stripeSecrets: { secretKeyArn: secretKeyArn!, webhookSecretArn: webhookSecretArn! } } : {}),
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    serviceTimeZone: String(node.tryGetContext('serviceTimeZone') ?? 'Europe/London'),
    logRetentionDays,
    apiThrottle,
    evidenceRetentionYears,
  };
}

/**
 * The documents bucket's name: fixed per stage, account and region, so family
 * stacks can name it without an import. It still says "reports" because it
 * held only interview reports at first: a new name would replace the bucket.
 */
export const documentsBucketName = (stage: string): string => `agency-${stage}-reports-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

/** The evidence bucket (S3 Object Lock, compliance mode): named per stage, account and region like the documents bucket. */
export const evidenceBucketName = (stage: string): string => `agency-${stage}-evidence-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

/** How cdk-nag spells the evidence bucket's objects in a finding. */
export const evidenceObjectsFinding = (stage: string): string =>
  `Resource::arn:<AWS::Partition>:s3:::agency-${stage}-evidence-<AWS::AccountId>-<AWS::Region>/*`;

/** How cdk-nag spells the ARN of a document kind's objects in a finding. */
export const documentsObjectsFinding = (stage: string, prefix: string): string =>
  `Resource::arn:<AWS::Partition>:s3:::agency-${stage}-reports-<AWS::AccountId>-<AWS::Region>/${prefix}*`;
