import type { Node } from 'constructs';

/** Deployment settings read from CDK context, validated before anything is built. */
export interface StageConfig {
  stage: string;
  /** Custom domain for every family (one API mapping per family prefix). */
  domain?: { name: string; certificateArn: string };
  serviceTimeZone: string;
  logRetentionDays: number;
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{1,15}$/;

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
  const logRetentionDays = Number(node.tryGetContext('logRetentionDays') ?? 30);
  if (!Number.isInteger(logRetentionDays) || logRetentionDays <= 0) {
    throw new Error(`Context "logRetentionDays" must be a positive integer, got "${logRetentionDays}"`);
  }
  return {
    stage,
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    serviceTimeZone: String(node.tryGetContext('serviceTimeZone') ?? 'Europe/London'),
    logRetentionDays,
  };
}
