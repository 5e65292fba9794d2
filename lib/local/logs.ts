import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm start` keeps its banner (URLs, credentials) on screen: the handlers'
 * and workers' log lines, which they write to stdout as in Lambda, go to
 * `$DATA_DIR/logs/local.log` instead, unless LOG_LEVEL=debug.
 */
export interface LogRoute {
  /** Writes to the terminal, whatever happens to stdout. */
  terminal: (text: string) => void;
  /** Where log lines go; undefined when they stay on the terminal. */
  file?: string;
  /** Writes one line to the log (the file, or the terminal under debug). */
  log: (line: string) => void;
  close(): Promise<void>;
}

export function routeLogs(dataDir: string, level = process.env.LOG_LEVEL): LogRoute {
  const write = process.stdout.write.bind(process.stdout);
  const terminal = (text: string) => void write(text);
  if (level === 'debug') return { terminal, log: (line) => terminal(line + '\n'), close: async () => undefined };
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const file = join(dataDir, 'logs', 'local.log');
  const stream = createWriteStream(file, { flags: 'a' });
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    return stream.write(chunk, callback);
  };
  return {
    terminal,
    file,
    log: (line) => void stream.write(line + '\n'),
    close: () =>
      new Promise<void>((resolve) => {
        process.stdout.write = write;
        stream.end(resolve);
      }),
  };
}
