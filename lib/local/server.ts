import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { FAMILIES, type FamilyId } from '../../functions/core/platform/families.js';
import { problemResponse } from '../../functions/middleware/problems.js';
import { pathPattern } from '../../functions/api/routes/operation.js';
import { handlerEntry, routeKey, UNKNOWN_ROUTE_HANDLER, type Route } from '../routes.js';
import { docsPage } from './docs.js';
import { invoke } from './metering.js';

/**
 * Serves every family under its prefix on one port, emulating API Gateway
 * HTTP APIs: each request becomes a payload format 2.0 event for the same
 * handler module the cloud runs.
 */

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  params: string[];
  handler: Handler;
}

/** API Gateway's own payload limit; the handlers enforce the much smaller product limit. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
const TEXT_TYPES = /^(application\/(.+\+)?json|text\/|application\/x-www-form-urlencoded|application\/xml)/i;

/**
 * API Gateway picks the most specific route: segment by segment, a literal
 * before a parameter (`/reference-requests/{id}` before `/{group}/{id}`).
 * Routes are tried in that order.
 */
export function bySpecificity(a: Pick<Route, 'path'>, b: Pick<Route, 'path'>): number {
  const sa = a.path.split('/');
  const sb = b.path.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{') ? 1 : 0;
    const pb = sb[i]!.startsWith('{') ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return 0;
}

export async function loadRoutes(routes: readonly Route[]): Promise<CompiledRoute[]> {
  const compiled = await Promise.all(
    routes.map(async (route) => {
      const module = (await import(pathToFileURL(handlerEntry(route)).href)) as { handler: Handler };
      if (typeof module.handler !== 'function') throw new Error(`${route.handler} does not export a handler`);
      return { route, ...pathPattern(route.path), handler: module.handler };
    }),
  );
  return compiled.sort((a, b) => bySpecificity(a.route, b.route));
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The route's path parameters, decoded; undefined when a segment is not valid percent-encoding (it can name nothing). */
function pathParametersOf(compiled: CompiledRoute, match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(compiled.params.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  } catch {
    return undefined;
  }
}

/** What the event says of its route: the family, API Gateway's route key, and the path parameters (none for `$default`). */
interface EventRoute {
  family: FamilyId;
  routeKey: string;
  pathParameters?: Record<string, string>;
}

function toEvent(req: IncomingMessage, url: URL, familyPath: string, route: EventRoute, body: Buffer): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: familyPath,
    rawQueryString: url.search.slice(1),
    cookies: req.headers.cookie?.split(';').map((c) => c.trim()),
    headers,
    queryStringParameters: url.search ? query : undefined,
    pathParameters: route.pathParameters && Object.keys(route.pathParameters).length ? route.pathParameters : undefined,
    // As the family's API stage says in the cloud: shared handlers learn their family from it.
    stageVariables: { family: route.family },
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method!,
        path: familyPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function lambdaContext(route: Pick<Route, 'handler' | 'timeoutSeconds'>, requestId: string): Context {
  // The cloud function's time-out (lib/api-stack.ts).
  const deadline = Date.now() + (route.timeoutSeconds ?? 10) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `local-${route.handler.replace('/', '-')}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.handler}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/local-${route.handler}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}

const notFound = (detail: string) => problemResponse(404, 'not-found', 'Not found', detail);

/** Paths outside the families the local server also answers (the S3 upload emulation). */
export type ExtraHandler = { prefix: string; method: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> };

export function createLocalServer(routes: CompiledRoute[], onError: (err: unknown) => void = () => undefined, extras: readonly ExtraHandler[] = []): Server {
  const families = Object.entries(FAMILIES) as [FamilyId, (typeof FAMILIES)[FamilyId]][];
  // The families' `$default` route (as each stack has in the cloud): loaded on first use, once the environment holds the deprecated families' dates.
  let unknownRoute: Promise<Handler> | undefined;
  const unknownRouteHandler = () =>
    (unknownRoute ??= import(pathToFileURL(handlerEntry({ handler: UNKNOWN_ROUTE_HANDLER })).href).then((m: { handler: Handler }) => m.handler));
  /** No operation for this method and path: the family's `$default` route answers (405 with Allow, or 404; with a deprecated family's headers), as in the cloud. */
  const noOperation = async (req: IncomingMessage, res: ServerResponse, url: URL, family: FamilyId, familyPath: string) => {
    const body = await readBody(req);
    if (body === 'too-large') return send(res, problemResponse(413, 'payload-too-large', 'Payload too large', 'The request body is too large'));
    const event = toEvent(req, url, familyPath, { family, routeKey: '$default' }, body);
    const handler = await unknownRouteHandler();
    send(res, await invoke('api', () => handler(event, lambdaContext({ handler: UNKNOWN_ROUTE_HANDLER }, event.requestContext.requestId))));
  };
  // The handler answers every request itself, errors included (below): nothing is left for node:http to await.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/docs')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(docsPage(routes.map((r) => r.route)));
        return;
      }
      const extra = extras.find((e) => e.method === req.method && url.pathname.startsWith(e.prefix));
      if (extra) return await extra.handle(req, res);
      const family = families.find(([, f]) => url.pathname === f.prefix || url.pathname.startsWith(f.prefix + '/'));
      if (!family) return send(res, notFound(`No API family serves ${url.pathname}`));
      const familyPath = url.pathname.slice(family[1].prefix.length) || '/';
      let match: RegExpExecArray | null = null;
      const compiled = routes.find((c) => c.route.family === family[0] && c.route.method === req.method && (match = c.pattern.exec(familyPath)));
      if (!compiled || !match) return await noOperation(req, res, url, family[0], familyPath);
      const pathParameters = pathParametersOf(compiled, match);
      if (!pathParameters) return await noOperation(req, res, url, family[0], familyPath);
      const body = await readBody(req);
      if (body === 'too-large') {
        return send(res, problemResponse(413, 'payload-too-large', 'Payload too large', 'The request body is too large'));
      }
      const event = toEvent(req, url, familyPath, { family: compiled.route.family, routeKey: routeKey(compiled.route), pathParameters }, body);
      send(res, await invoke('api', () => compiled.handler(event, lambdaContext(compiled.route, event.requestContext.requestId))));
    } catch (err) {
      // A handler that throws is a 500 in the cloud too (API Gateway's "Internal Server Error").
      onError(err);
      if (!res.headersSent) send(res, problemResponse(500, 'internal', 'Internal server error', 'The handler failed'));
    }
  });
  // Keep idle connections longer than clients do (as API Gateway does), so a client never reuses a socket the server has just closed.
  server.keepAliveTimeout = 65_000;
  return server;
}
