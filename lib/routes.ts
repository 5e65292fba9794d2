import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Route } from '../functions/api/routes/index.js';

/** Where the route table's handler modules live on disk, for the CDK stacks, the local server and the benchmark. */

export { ROUTES, routeKey, routesOf, type Route } from '../functions/api/routes/index.js';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export const handlerEntry = (route: Pick<Route, 'handler'>): string => join(PROJECT_ROOT, 'functions', 'http', `${route.handler}.ts`);

/**
 * Every family's `$default` route (its stack in the cloud, the local server here): a request the route table
 * has no operation for is 405 with `Allow` when the path has other methods, else 404, as problem+json (with a
 * deprecated family's deprecation headers).
 */
export const UNKNOWN_ROUTE_HANDLER = 'shared/_unknown-route';
