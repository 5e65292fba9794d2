import middy from '@middy/core';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Operation } from '../api/routes/operation.js';
import type { PathParams } from '../api/schemas/params.js';
import { depsFromEnv, type Deps } from '../core/platform/deps.js';
import { consumeLinkRequest } from '../core/access/rate-limit.js';
import { isLinkWithdrawn } from '../core/bookings/link-withdrawn.js';
import type { Logger } from './logger.js';
import { bodyLimitMiddleware, correlated, edgeMiddleware, parsePathParams, publicBaseUrl, type Event } from './edge.js';
import { errorPage } from './html.js';
import { edgeProblem, toProblemResponse } from './problems.js';

/**
 * Builds a handler for a public HTML page (no bearer token; the link carries
 * an unguessable token). Forms are posted as application/x-www-form-urlencoded
 * and work without JavaScript. Errors become a plain page with the same
 * status the API would use.
 */

export interface PageInput<O extends Operation = Operation> {
  deps: Deps;
  log: Logger;
  method: string;
  params: PathParams<O['path']>;
  query: Record<string, string>;
  /** The posted form, for POST. */
  form: Record<string, string>;
  baseUrl: string;
}

export type PageResult = { status: number; html: string } | { redirect: string };

function renderPageError(err: unknown) {
  // A disabled agency's link or invite: 410 and a plain page, whatever page it was.
  if (isLinkWithdrawn(err)) {
    return {
      response: {
        statusCode: 410,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: errorPage('This link is no longer in use', (err as Error).message),
      } as APIGatewayProxyStructuredResultV2,
      unexpected: false,
    };
  }
  const { response, unexpected } = toProblemResponse(err);
  const problem = JSON.parse(response.body ?? '{}') as { title?: string; detail?: string };
  const detail = unexpected ? 'Something went wrong on our side. Please try again in a moment.' : (problem.detail ?? '');
  return {
    response: {
      statusCode: response.statusCode,
      // Keep what the problem says in headers (Retry-After); the page replaces the JSON body.
      headers: { ...response.headers, 'content-type': 'text/html; charset=utf-8' },
      body: errorPage(problem.title ?? 'Error', detail),
    } as APIGatewayProxyStructuredResultV2,
    unexpected,
  };
}

export function pageHandler<const O extends Operation>(op: O, page: (input: PageInput<O>) => Promise<PageResult>, deps: Deps = depsFromEnv()) {
  return correlated(
    middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
      .use(edgeMiddleware(op, renderPageError))
      .use(bodyLimitMiddleware())
      .handler(async (event): Promise<APIGatewayProxyStructuredResultV2> => {
        const method = event.requestContext.http.method;
        const params = parsePathParams(op, event) as unknown as PathParams<O['path']>;
        // The link's token is the credential: throttled per visitor and per link before the page does any work.
        if ('token' in params) await consumeLinkRequest(deps, String(params.token), event.requestContext.http.sourceIp);
        let form: Record<string, string> = {};
        if (method === 'POST') {
          if (!/^application\/x-www-form-urlencoded/i.test(event.headers?.['content-type'] ?? '')) {
            throw edgeProblem('unsupported-media-type', 'Send the form as application/x-www-form-urlencoded');
          }
          const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
          form = Object.fromEntries(new URLSearchParams(raw));
        }
        const result = await page({
          deps,
          log: event.state!.log,
          method,
          params,
          query: (event.queryStringParameters ?? {}) as Record<string, string>,
          form,
          baseUrl: publicBaseUrl(event, event.state!.family),
        });
        if ('redirect' in result) return { statusCode: 303, headers: { location: result.redirect } };
        return {
          statusCode: result.status,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: result.html,
        };
      }),
  );
}
