import type { Deps } from '../../functions/core/platform/deps.js';

/** What bin/ops.ts hands each family's operator commands: its target, option readers and printer. */
export interface OpsKit {
  deps: () => Deps;
  text: (name: string) => string;
  int: (name: string) => number;
  optional: <T>(name: string, read: (name: string) => T) => T | undefined;
  oneOf: <T extends string>(name: string, values: readonly T[]) => T;
  date: (name: string) => string;
  print: (value: unknown) => void;
}

export interface OpsCommand {
  options: string[];
  usage: string;
  run: () => Promise<void>;
}

