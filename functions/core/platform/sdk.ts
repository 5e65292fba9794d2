import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isTransactionConflict } from './conditions.js';

/**
 * The SDK's logger middleware hands every request and response, copied
 * through the sensitive-data filter of its schema, to the client's logger:
 * the default no-op one here, as no client is given another. Removed from
 * each client this project makes, it stops costing a few per cent of a busy
 * function's CPU (a profile of webhook delivery: 3 %) for output nobody sees.
 */
export function withoutSdkLogging<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}

/** A short random pause before the `attempt`-th try again of a write that lost a race: up to 20 ms times the attempt. */
export const conflictPause = (attempt: number): Promise<void> => new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));

/** Tries of a single write that met a transaction in flight on its item. */
const WRITE_CONFLICT_TRIES = 5;

/**
 * Real DynamoDB refuses a single write to an item while a transaction on
 * that item is in flight (`TransactionConflictException`; the emulator
 * serialises instead). Nothing was written and the transaction is over in
 * milliseconds, so the write goes again after a short random pause, as a
 * transaction stopped only by another does (transact.ts); the SDK's own
 * retries leave this error alone.
 */
export function retryingWriteConflicts(client: DynamoDBClient): DynamoDBClient {
  client.middlewareStack.add(
    (next) => async (args) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(args);
        } catch (err) {
          if (!isTransactionConflict(err) || attempt >= WRITE_CONFLICT_TRIES) throw err;
          await conflictPause(attempt);
        }
      }
    },
    { step: 'initialize', name: 'retryWriteConflictMiddleware' },
  );
  return client;
}
