// Jest loads global setup outside its transform pipeline: tsx's loader lets it import the project's TypeScript.
import { register } from 'tsx/esm/api';

/**
 * Starts one DynamoDB Local (in memory) and one fauxqs for the whole run, on
 * free ports. Test files isolate themselves with their own tables and queues;
 * workers inherit the endpoints through the environment.
 */
export default async function globalSetup() {
  register();
  const { startDynamoDbLocal, startLocalSqs } = await import('../../lib/local/emulators.ts');
  const [dynamo, sqs] = await Promise.all([startDynamoDbLocal(), startLocalSqs()]);
  globalThis.__EMULATORS__ = [dynamo, sqs];
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TEST_SQS_ENDPOINT = sqs.endpoint;
}
