import { rotateWebhookSecret } from '../shared/webhooks.js';

export const handler = rotateWebhookSecret('clinical-interview');
