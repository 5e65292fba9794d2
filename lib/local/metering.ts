import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the local stack does that a deployment is billed for per request, for
 * the benchmark's cost measure: each Lambda invocation it stands in for (an
 * API request, a worker's batch, the stream handler's batch), and which of
 * its table calls have no cloud counterpart (the outbox poller's reads and
 * deletes stand in for the table's stream, whose reads by Lambda are free,
 * and for TTL, whose deletes are free).
 */

export type InvocationKind = 'api' | 'worker' | 'stream';

export const invocations: Record<InvocationKind, number> = { api: 0, worker: 0, stream: 0 };
/** Their billed duration in all: each rounded up to the millisecond, as Lambda bills. */
export const invocationTime = { ms: 0 };

/** Runs one invocation of a handler, counted and timed. */
export async function invoke<T>(kind: InvocationKind, handler: () => Promise<T>): Promise<T> {
  invocations[kind]++;
  const started = performance.now();
  try {
    return await handler();
  } finally {
    invocationTime.ms += Math.ceil(performance.now() - started);
  }
}

const unbilled = new AsyncLocalStorage<true>();

/** Runs work that only the local stack does; the benchmark does not bill its calls. */
export const notBilled = <T>(work: () => Promise<T>): Promise<T> => unbilled.run(true, work);

export const isBilled = (): boolean => unbilled.getStore() === undefined;
