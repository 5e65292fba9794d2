import { openApi } from '../shared/docs.js';

export const handler = openApi('portal-v2');
