/** Every rule that depends on time takes a clock, so tests can move it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const toEpochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * Still kept at `now`: an item that states the end of its retention
 * (`retention_until`) is gone from then, whether or not TTL has removed it
 * yet; one without an end is kept.
 */
export function retained(item: { retention_until?: string | null } | Readonly<Record<string, unknown>>, now: Date): boolean {
  const end = item.retention_until;
  return typeof end !== 'string' || !end || Date.parse(end) > now.getTime();
}

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
