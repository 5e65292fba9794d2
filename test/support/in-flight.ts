import type { Deps } from '../../functions/core/platform/deps.js';

/**
 * Watches a client's DynamoDB calls for how many were in flight at once:
 * reads sent together show as 2 or more, reads one after another as 1.
 */
export function watchInFlight(deps: Deps) {
  let inFlight = 0;
  let most = 0;
  const name = 'watchInFlight';
  deps.db.middlewareStack.add(
    (next) => async (args) => {
      most = Math.max(most, ++inFlight);
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name },
  );
  return {
    /** `work`'s result, and the most calls in flight at once while it ran. */
    async during<T>(work: () => Promise<T>): Promise<{ result: T; together: number }> {
      most = 0;
      const result = await work();
      return { result, together: most };
    },
    stop: () => void deps.db.middlewareStack.remove(name),
  };
}
