import { webhookLogs } from '../shared/webhooks.js';

export const handler = webhookLogs('portal-v2');
