import { docsAsset } from '../shared/docs.js';

export const handler = docsAsset('portal-v2');
