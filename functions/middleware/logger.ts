/** Structured JSON log lines, one per event, each carrying the request id when there is one. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const LEVELS = { info: 1, error: 2, silent: 3 } as const;
type Level = keyof typeof LEVELS;

const threshold = (): number => LEVELS[(process.env.LOG_LEVEL as Level) ?? 'info'] ?? LEVELS.info;

export function createLogger(base: LogFields = {}, write: (line: string) => void = (l) => process.stdout.write(l + '\n')): Logger {
  const emit = (level: 'info' | 'error', message: string, fields: LogFields = {}) => {
    if (LEVELS[level] < threshold()) return;
    write(JSON.stringify({ level, time: new Date().toISOString(), message, ...base, ...fields }));
  };
  return {
    info: (message, fields) => emit('info', message, fields),
    error: (message, fields) => emit('error', message, fields),
    child: (fields) => createLogger({ ...base, ...fields }, write),
  };
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: { name: err.name, message: err.message, stack: err.stack } } : { error: String(err) };
}
