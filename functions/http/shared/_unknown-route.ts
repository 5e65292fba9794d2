import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { allowedMethods } from '../../api/routes/index.js';
import { DomainError } from '../../core/platform/errors.js';
import { FAMILIES } from '../../core/platform/families.js';
import { edgeMiddleware, familyOf, type Event } from '../../middleware/edge.js';
import { edgeProblem, toProblemResponse } from '../../middleware/problems.js';

/**
 * What a family answers where the route table has no operation. In the cloud
 * an HTTP API answers an unknown route itself (a bare `{"message":"Not
 * Found"}`, none of our headers), and a known path with another method is
 * an unknown route to it; so each family's stack gives this function its
 * `$default` route, and the local server sends the same requests here.
 * A path the family has with other methods is 405 with them in `Allow`
 * (no HEAD or OPTIONS: nothing answers them); another path is 404. Not an
 * operation (no route table entry, no document): the edge alone, so a
 * deprecated family's answer carries its Deprecation, Sunset and Link
 * headers, and after the sunset and in a brownout is 410 like the rest of it.
 */

export const handler = middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
  // No path of its own: the family comes from the stage variable, the successor link is the successor family's base URL.
  .use(edgeMiddleware({ path: '' }, toProblemResponse))
  .handler(async (event) => {
    const { method } = event.requestContext.http;
    const family = familyOf({}, event);
    // Behind the custom domain the path keeps the family's API mapping key (its prefix).
    const prefix = FAMILIES[family].prefix;
    const path = event.rawPath.startsWith(prefix + '/') ? event.rawPath.slice(prefix.length) : event.rawPath;
    const allowed = allowedMethods(family, path);
    if (allowed.length && !allowed.includes(method as never)) {
      throw edgeProblem('method-not-allowed', `This path takes ${allowed.join(', ')}, not ${method}`, {}, { allow: allowed.join(', ') });
    }
    throw new DomainError('not-found', `This API has no operation ${method} ${path}`);
  });
