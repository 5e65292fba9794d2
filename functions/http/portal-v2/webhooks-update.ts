import { updateWebhook } from '../shared/webhooks.js';

export const handler = updateWebhook('portal-v2');
