import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Operation } from '../api/routes/operation.js';
import type { FamilyId } from '../core/platform/families.js';
import { correlated, edgeMiddleware, parsePathParams, publicBaseUrl, toLambdaResult, type Event, type HttpResult } from './edge.js';
import { toProblemResponse } from './problems.js';

/**
 * A handler for a public operation that needs no table and no token (the
 * OpenAPI document and the docs page): the shared edge and nothing else, so
 * its bundle carries no AWS SDK.
 */
export function publicHandler(op: Operation, operation: (input: { family: FamilyId; params: Record<string, string>; baseUrl: string }) => Promise<HttpResult>) {
  return correlated(
    middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
      .use(edgeMiddleware(op, toProblemResponse))
      .handler(async (event) => {
        const family = event.state!.family;
        return toLambdaResult(await operation({ family, params: parsePathParams(op, event), baseUrl: publicBaseUrl(event, family) }));
      }),
  );
}
