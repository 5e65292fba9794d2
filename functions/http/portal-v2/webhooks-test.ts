import { testWebhook } from '../shared/webhooks.js';

export const handler = testWebhook('portal-v2');
