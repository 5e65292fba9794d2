/** The environment Lambda gives a bundled function, pointed at the test table on DynamoDB Local: what a test runs a bundle with, from a folder with no node_modules. */
export const lambdaEnv = (table: string): Record<string, string | undefined> => ({
  PATH: process.env.PATH,
  TABLE_NAME: table,
  AWS_REGION: 'eu-west-2',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_ENDPOINT_URL_DYNAMODB: process.env.TEST_DYNAMODB_ENDPOINT,
  LOG_LEVEL: 'silent',
});
