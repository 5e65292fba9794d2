import { listWebhooks } from '../shared/webhooks.js';

export const handler = listWebhooks('clinical-interview');
