import { docsPage } from '../shared/docs.js';

export const handler = docsPage('clinical-interview');
