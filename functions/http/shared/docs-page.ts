import * as shared from '../../api/routes/shared.js';
import { publicHandler } from '../../middleware/public-handler.js';
import { DOCS_CSP, PAGE } from './_docs.js';

export const handler = publicHandler(shared.showDocs, async () => ({
  status: 200,
  body: Buffer.from(PAGE),
  headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP },
}));
