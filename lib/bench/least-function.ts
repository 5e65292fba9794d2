import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import * as v from 'valibot';
import { db } from './floor-entry.js';

/**
 * A reference for the load-time figures (lib/bench/bundles.ts), not a
 * function of the product: what any HTTP function here must carry with no
 * rule of its own. The floor (the document client), Powertools' logger (in
 * every function, for the correlated log lines operations read), middy and a
 * valibot schema for its input.
 */
const logger = new Logger({ serviceName: 'least-function' });
const Body = v.object({ name: v.pipe(v.string(), v.minLength(1)) });

export const handler = middy(async (event: { body: string }) => {
  const body = v.parse(Body, JSON.parse(event.body));
  logger.info('put', { body });
  await db.send({} as never);
  return { statusCode: 204 };
});
