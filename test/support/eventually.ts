type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Waits for something asynchronous to become true instead of sleeping a fixed
 * time: a sleep long enough on a busy machine is slow everywhere else, and
 * one short enough is flaky. `check` is called until it returns a truthy value,
 * which is returned; a throw counts as "not yet". After `timeoutMs` the last
 * error (or a plain timeout) is thrown, so the test fails with the reason.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50, what = 'the condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: Error | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
      last = undefined;
    } catch (err) {
      last = err instanceof Error ? err : new Error(String(err));
    }
    if (Date.now() >= deadline) {
      throw last ?? new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
