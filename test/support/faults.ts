import { createDocumentClient, type Deps } from '../../functions/core/platform/deps.js';

export type SentCommand = { constructor: { name: string }; input: Record<string, any> };

/**
 * The same table through a client on which `before` may throw instead of a
 * call (what real DynamoDB does and DynamoDB Local never does: a write
 * refused or a transaction cancelled for another in flight) and `after` may
 * act once a call is answered (another writer, between a read and the next
 * write). Everything else goes to DynamoDB Local as it is.
 */
export function withFaults(deps: Deps, hooks: { before?: (command: SentCommand) => void; after?: (command: SentCommand) => Promise<void> }): Deps {
  const db = Object.create(deps.db) as Deps['db'];
  db.send = (async (command: SentCommand, ...rest: unknown[]) => {
    hooks.before?.(command);
    const result = await (deps.db.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    await hooks.after?.(command);
    return result;
  }) as Deps['db']['send'];
  return { ...deps, db };
}

/**
 * A transaction cancelled for its `at`-th item, nothing written: by another
 * transaction in flight on it (`TransactionConflict`, which real DynamoDB
 * gives and DynamoDB Local never does), or by its condition.
 */
export const cancelledFor = (items: readonly unknown[], at: number, code: 'TransactionConflict' | 'ConditionalCheckFailed' = 'TransactionConflict') =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: items.map((_, i) => ({ Code: i === at ? code : 'None' })),
  });

/** A single write refused because a transaction on its item is in flight. */
export const writeConflict = () =>
  Object.assign(new Error('Operation was rejected because there is an ongoing transaction for the item'), { name: 'TransactionConflictException' });

/**
 * The same table through a client of the functions' own making
 * (createDocumentClient) on which `refuse` may throw in place of the call
 * going out, inside the client's own middleware: what the client does about
 * an error DynamoDB Local never gives is then what is tested.
 */
export function withWireFaults(deps: Deps, refuse: (input: Record<string, any>) => void): Deps {
  const db = createDocumentClient();
  db.middlewareStack.add(
    (next) => async (args) => {
      refuse(args.input as Record<string, any>);
      return next(args);
    },
    { step: 'build', name: 'testWireFault' },
  );
  return { ...deps, db };
}
