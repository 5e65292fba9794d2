import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FamilyId } from '../../core/families.js';
import { DomainError } from '../../core/errors.js';
import type { HttpResult } from '../../middleware/edge.js';
import { publicHandler } from '../../middleware/public-handler.js';
import { buildOpenApi } from '../../../lib/openapi.js';

/**
 * The OpenAPI document of a family and its docs page (Swagger UI, served from
 * the swagger-ui-dist package: no CDN). The document is built from the route
 * table at cold start, so it cannot drift from what is served.
 */

const documents = new Map<string, object>();

export const openApi = (family: FamilyId) =>
  publicHandler(family, async ({ baseUrl }) => {
    if (!documents.has(baseUrl)) documents.set(baseUrl, buildOpenApi(family, baseUrl));
    return { status: 200, body: documents.get(baseUrl), headers: { 'cache-control': 'public, max-age=300' } };
  });

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title><link rel="stylesheet" href="./docs/swagger-ui.css"></head>
<body><div id="swagger"></div><script src="./docs/swagger-ui-bundle.js"></script><script src="./docs/init.js"></script></body></html>`;

const INIT = "window.ui = SwaggerUIBundle({ url: './openapi.json', dom_id: '#swagger', deepLinking: true });\n";

// The page loads only its own scripts and styles, and the document from its own origin.
const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export const docsPage = (family: FamilyId) =>
  publicHandler(family, async () => ({
    status: 200,
    body: Buffer.from(PAGE),
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP },
  }));

/** The Swagger UI files: beside the bundle in Lambda (copied at synth), from node_modules locally. */
function swaggerDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'swagger-ui');
  return existsSync(bundled) ? bundled : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

export const docsAsset = (family: FamilyId) =>
  publicHandler(family, async ({ params }): Promise<HttpResult> => {
    const name = params.asset ?? '';
    if (name === 'init.js') return { status: 200, body: Buffer.from(INIT), headers: { 'content-type': 'application/javascript; charset=utf-8' } };
    if (!(name in ASSETS)) throw new DomainError('not-found', `No docs asset ${name}`);
    return {
      status: 200,
      body: readFileSync(join(swaggerDir(), name)),
      headers: { 'content-type': ASSETS[name]!, 'cache-control': 'public, max-age=86400' },
    };
  });
