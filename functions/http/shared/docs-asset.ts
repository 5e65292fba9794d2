import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as shared from '../../api/routes/shared.js';
import { DomainError } from '../../core/platform/errors.js';
import type { HttpResult } from '../../middleware/edge.js';
import { publicHandler } from '../../middleware/public-handler.js';
import { ASSETS, INIT, swaggerDir } from './_docs.js';

export const handler = publicHandler(shared.getDocsAsset, async ({ params }): Promise<HttpResult> => {
  const name = params.asset ?? '';
  if (name === 'init.js') return { status: 200, body: Buffer.from(INIT), headers: { 'content-type': 'application/javascript; charset=utf-8' } };
  if (!Object.hasOwn(ASSETS, name)) throw new DomainError('not-found', `No docs asset ${name}`);
  return {
    status: 200,
    body: readFileSync(join(swaggerDir(), name)),
    headers: { 'content-type': ASSETS[name]!, 'cache-control': 'public, max-age=86400' },
  };
});
