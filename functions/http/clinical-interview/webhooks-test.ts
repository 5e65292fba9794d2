import { testWebhook } from '../shared/webhooks.js';

export const handler = testWebhook('clinical-interview');
