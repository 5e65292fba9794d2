// Jest loads global setup outside its transform pipeline: tsx's loader lets it import the project's TypeScript.
import { register } from 'tsx/esm/api';

/**
 * Starts one DynamoDB Local (in memory) and one fauxqs for the whole run, on
 * free ports. Test files isolate themselves with their own tables and queues;
 * workers inherit the endpoints through the environment.
 */
export default async function globalSetup() {
  register();
  // Every temporary folder of the run (data directories, downloads, bundles) goes under one, which teardown removes;
  // workers and the processes they start inherit it through TMPDIR.
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  globalThis.__RUN_TMPDIR__ = mkdtempSync(join(tmpdir(), 'agency-test-run-'));
  process.env.TMPDIR = globalThis.__RUN_TMPDIR__;
  const { startDynamoDbLocal, startLocalSqs } = await import('../../lib/local/emulators.ts');
  const [dynamo, sqs] = await Promise.all([startDynamoDbLocal(), startLocalSqs()]);
  globalThis.__EMULATORS__ = [dynamo, sqs];
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TEST_SQS_ENDPOINT = sqs.endpoint;
}
