/** Every rule that depends on time takes a clock, so tests can move it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const toEpochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
