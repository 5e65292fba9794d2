import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { FamilyId } from '../core/families.js';
import { edgeMiddleware, publicBaseUrl, toLambdaResult, type Event, type HttpResult } from './edge.js';
import { toProblemResponse } from './problems.js';

/**
 * A handler for a public operation that needs no table and no token (the
 * OpenAPI document and the docs page): the shared edge and nothing else, so
 * its bundle carries no AWS SDK.
 */
export function publicHandler(family: FamilyId, operation: (input: { params: Record<string, string>; baseUrl: string }) => Promise<HttpResult>) {
  return middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(edgeMiddleware(family, toProblemResponse))
    .handler(async (event) =>
      toLambdaResult(await operation({ params: (event.pathParameters ?? {}) as Record<string, string>, baseUrl: publicBaseUrl(event, family) })),
    );
}
