import { getWebhook } from '../shared/webhooks.js';

export const handler = getWebhook('portal-v2');
