import { createWebhook } from '../shared/webhooks.js';

export const handler = createWebhook('portal-v2');
