import { getWebhook } from '../shared/webhooks.js';

export const handler = getWebhook('clinical-interview');
