import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { systemClock, type Clock } from './clock.js';
import { loadConfig, type CoreConfig, environment } from './config.js';
import { retryingWriteConflicts, withoutSdkLogging } from './sdk.js';

/** What every core operation needs: the table, a clock and the configuration. */
export interface Deps {
  db: DynamoDBDocumentClient;
  table: string;
  clock: Clock;
  config: CoreConfig;
}

export function createDocumentClient(): DynamoDBDocumentClient {
  // The endpoint comes from AWS_ENDPOINT_URL_DYNAMODB when set (the local stack).
  return DynamoDBDocumentClient.from(retryingWriteConflicts(withoutSdkLogging(new DynamoDBClient({}))), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

export function depsFromEnv(env: NodeJS.ProcessEnv = environment(), clock: Clock = systemClock): Deps {
  const config = loadConfig(env);
  return { db: createDocumentClient(), table: config.tableName, clock, config };
}
