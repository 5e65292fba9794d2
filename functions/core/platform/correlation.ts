import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The correlation id: the API request id (answered as `x-request-id`) of the
 * request a piece of work comes from. The HTTP edge and the queue workers run
 * their work inside `withCorrelationId`; outbox items and queue messages
 * written meanwhile carry the id on, and every log line written meanwhile
 * names it. Async-local, so concurrent requests of the local server and
 * concurrent groups of one batch each keep their own.
 */
const store = new AsyncLocalStorage<string>();

export const correlationId = (): string | undefined => store.getStore();

export const withCorrelationId = <T>(id: string | undefined, work: () => T): T => (id ? store.run(id, work) : work());

/** The SQS message attribute that carries the id from queue to queue. */
export const CORRELATION_ATTRIBUTE = 'correlation_id';

/** The message attributes of a message that carries `id` on (none without one). */
export function correlationAttributes(id: string | undefined) {
  return id ? { MessageAttributes: { [CORRELATION_ATTRIBUTE]: { DataType: 'String', StringValue: id } } } : {};
}
