import { createWebhook } from '../shared/webhooks.js';

export const handler = createWebhook('clinical-interview');
