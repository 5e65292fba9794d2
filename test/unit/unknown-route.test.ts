import { handler } from '../../functions/http/shared/_unknown-route.js';

/**
 * The `$default` route every family's stack has in the cloud (the local
 * server sends the same requests to the same function, test/e2e/hostile-paths):
 * API Gateway sends it any route it does not have, a known path with
 * another method included.
 */

const event = (family: string, method: string, rawPath: string) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath,
  rawQueryString: '',
  headers: {},
  requestContext: { http: { method, path: rawPath, sourceIp: '127.0.0.1' }, requestId: 'r1', domainName: 'api.example', stage: '$default' },
  stageVariables: { family },
  isBase64Encoded: false,
});

const answer = (family: string, method: string, path: string) => handler(event(family, method, path) as never, {} as never);

it.each([
  ['registration-monitoring', 'POST', '/workers/12', 'GET, PUT, PATCH, DELETE'],
  ['clinical-interview', 'PUT', '/auth/token', 'GET, POST, DELETE'],
  // Behind the custom domain the path keeps the API mapping key.
  ['clinical-interview', 'PATCH', '/clinical-interview/auth/token', 'GET, POST, DELETE'],
  // Nothing answers HEAD: it is a method the path does not have.
  ['registration-monitoring', 'HEAD', '/workers', 'GET, POST'],
])('%s %s %s is 405 with Allow: %s', async (family, method, path, allow) => {
  const res = await answer(family, method, path);
  expect(res.statusCode).toBe(405);
  expect(res.headers).toMatchObject({ allow, 'content-type': 'application/problem+json' });
  expect(JSON.parse(res.body!)).toMatchObject({ type: '/problems/method-not-allowed', status: 405, title: 'Method not allowed' });
  expect(JSON.parse(res.body!).detail).toContain(allow);
});

it('a path the family does not have is 404 problem+json, without Allow', async () => {
  const res = await answer('registration-monitoring', 'GET', '/nowhere');
  expect(res.statusCode).toBe(404);
  expect(res.headers!.allow).toBeUndefined();
  expect(JSON.parse(res.body!)).toMatchObject({ type: '/problems/not-found', detail: 'This API has no operation GET /nowhere' });
});
