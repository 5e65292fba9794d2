import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DomainError } from '../../core/platform/errors.js';
import { edgeMiddleware, type Event } from '../../middleware/edge.js';
import { toProblemResponse } from '../../middleware/problems.js';

/**
 * What a deprecated family answers where the route table has no operation
 * (design portal-and-facades section 2 rule 3: every response, 404s
 * included, carries the deprecation headers). In the cloud an HTTP API
 * answers an unknown route itself, with no headers of ours, so each
 * deprecated family's stack gives this function its `$default` route; the
 * local server sends the same requests here. Not an operation (no route
 * table entry, no document): the edge alone, so after the sunset and in a
 * brownout it is 410 like the rest of the family, and otherwise 404 with
 * the Deprecation, Sunset and Link headers.
 */

export const handler = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
  // No path of its own: the family comes from the stage variable, the successor link is the successor family's base URL.
  .use(edgeMiddleware({ path: '' }, toProblemResponse))
  .handler(async (event) => {
    throw new DomainError('not-found', `This API has no operation ${event.requestContext.http.method} ${event.rawPath}`);
  });
