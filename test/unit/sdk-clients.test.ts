import { createDocumentClient } from '../../functions/core/platform/deps.js';
import { createSqsClient } from '../../functions/core/platform/sqs.js';

/**
 * The clients the functions make carry no SDK logger middleware, which would
 * copy every request and response through a filter for a logger that drops
 * them (functions/core/platform/sdk.ts); the rest of the stack is the SDK's.
 */
it('DynamoDB and SQS clients are made without the SDK logger middleware', () => {
  for (const client of [createDocumentClient(), createSqsClient()]) {
    const stack = client.middlewareStack.identify();
    expect(stack.filter((name) => name.startsWith('loggerMiddleware'))).toEqual([]);
    expect(stack.some((name) => name.startsWith('retryMiddleware'))).toBe(true);
  }
});

it('the DynamoDB client tries a write again that met a transaction in flight on its item (functions/core/platform/sdk.ts)', () => {
  expect(
    createDocumentClient()
      .middlewareStack.identify()
      .some((name) => name.startsWith('retryWriteConflictMiddleware')),
  ).toBe(true);
});
