import { webhookLogs } from '../shared/webhooks.js';

export const handler = webhookLogs('clinical-interview');
