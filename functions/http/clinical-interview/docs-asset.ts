import { docsAsset } from '../shared/docs.js';

export const handler = docsAsset('clinical-interview');
