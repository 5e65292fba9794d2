import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One stack per data directory: two DynamoDB Locals on one database file, or
 * a second stack removing the first one's local.json on exit, break both.
 * The lock is a file created exclusively, naming its holder; a holder whose
 * process is gone (killed, machine restarted) leaves a stale lock that the
 * next stack takes over.
 */

export interface LockHolder {
  pid: number;
  port: number;
  started_at: string;
}

export class DataDirLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${dataDir} is in use by the local stack of process ${holder.pid} (port ${holder.port}, started ${holder.started_at}). ` +
        'Stop that one first (Ctrl-C in its terminal), or start this one with another DATA_DIR and PORT.',
    );
    this.name = 'DataDirLocked';
  }
}

export const lockPath = (dataDir: string) => join(dataDir, 'stack.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined; // gone meanwhile, or half written by a holder that died
  }
}

export interface DataDirLock {
  /** Names the port once the server listens. */
  listening(port: number): void;
  release(): void;
}

/** Takes the data directory's lock. Throws DataDirLocked while a live process holds it. */
export function lockDataDir(dataDir: string, port: number): DataDirLock {
  const path = lockPath(dataDir);
  const mine: LockHolder = { pid: process.pid, port, started_at: new Date().toISOString() };
  const ours = () => {
    const holder = readHolder(path);
    return holder?.pid === mine.pid && holder.started_at === mine.started_at;
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(mine) + '\n', { flag: 'wx' });
      return {
        listening: (actual) => {
          if (ours()) writeFileSync(path, JSON.stringify({ ...mine, port: actual }) + '\n');
        },
        // Only our own lock: never one a later stack took over.
        release: () => {
          if (ours()) rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    if (holder && alive(holder.pid)) throw new DataDirLocked(dataDir, holder);
    rmSync(path, { force: true }); // stale
  }
  throw new Error(`Could not lock ${dataDir}: another stack keeps taking ${path}`);
}
