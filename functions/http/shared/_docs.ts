import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The docs page (Swagger UI, served from the swagger-ui-dist package: no CDN) and its assets. */

export const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title><link rel="stylesheet" href="./docs/swagger-ui.css"></head>
<body><div id="swagger"></div><script src="./docs/swagger-ui-bundle.js"></script><script src="./docs/init.js"></script></body></html>`;

export const INIT = "window.ui = SwaggerUIBundle({ url: './openapi.json', dom_id: '#swagger', deepLinking: true });\n";

// The page loads only its own scripts and styles, and the document from its own origin.
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/** The Swagger UI files: beside the bundle in Lambda (copied at synth), from node_modules locally. */
export function swaggerDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'swagger-ui');
  return existsSync(bundled) ? bundled : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};
