import { deleteWebhook } from '../shared/webhooks.js';

export const handler = deleteWebhook('clinical-interview');
