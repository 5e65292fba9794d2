import { docsPage } from '../shared/docs.js';

export const handler = docsPage('portal-v2');
