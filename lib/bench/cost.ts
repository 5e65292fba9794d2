import { priced, reading, since, type Usage } from './metering.js';

/**
 * Counted cost of an operation: what the meter reads while it runs `times`
 * over, and until the work it sets off (events, e-mails, webhook deliveries)
 * has settled, divided by `times`. Run one operation at a time, with nothing
 * else going on, so what it set off is all that is counted.
 */
export async function counted(times: number, operation: () => Promise<void>): Promise<Usage & ReturnType<typeof priced>> {
  await settled();
  const before = reading();
  await operation();
  await settled();
  const usage = since(before, times);
  return { ...usage, ...priced(usage) };
}

/** Waits until the meter has not moved for a second and a half (the pollers drained), at most 30 s. */
export async function settled(): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = JSON.stringify(reading());
  let quietSince = Date.now();
  while (Date.now() - quietSince < 1500 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = JSON.stringify(reading());
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    }
  }
}
