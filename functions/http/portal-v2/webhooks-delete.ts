import { deleteWebhook } from '../shared/webhooks.js';

export const handler = deleteWebhook('portal-v2');
