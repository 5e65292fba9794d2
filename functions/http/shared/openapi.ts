import { buildOpenApi } from '../../api/openapi.js';
import * as shared from '../../api/routes/shared.js';
import { publicHandler } from '../../middleware/public-handler.js';

/** The family's OpenAPI document, built from the route table at cold start so it cannot drift from what is served. */
const documents = new Map<string, object>();

export const handler = publicHandler(shared.getOpenApi, async ({ family, baseUrl }) => {
  const key = `${family} ${baseUrl}`;
  if (!documents.has(key)) documents.set(key, buildOpenApi(family, baseUrl));
  return { status: 200, body: documents.get(key), headers: { 'cache-control': 'public, max-age=300' } };
});
