import { deliver, fanOut } from '../core/webhook-delivery.js';
import { sqsBatchHandler } from './_batch.js';

/** The webhook consumers as SQS event source handlers; the Lambda modules beside this one wire them from the environment. */

export const fanOutHandler = (...args: Parameters<typeof fanOut>) => sqsBatchHandler(fanOut(...args));

export const deliveryHandler = (...args: Parameters<typeof deliver>) => sqsBatchHandler(deliver(...args));
