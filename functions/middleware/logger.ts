import { Console } from 'node:console';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationId } from '../core/platform/correlation.js';

/**
 * Structured JSON log lines (Powertools Logger), one per event, each carrying
 * the correlation id of the request that caused it (core/platform/correlation.ts).
 * LOG_LEVEL sets the level (`silent` in tests). Secrets are never passed here.
 */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const SERVICE = 'agency-api';

function powertools(): PowertoolsLogger {
  const logger = new PowertoolsLogger({ serviceName: SERVICE });
  // Every level to stdout, as Lambda's own log lines go: the local stack routes stdout to its log file.
  (logger as unknown as { console: Console }).console = new Console({ stdout: process.stdout, stderr: process.stdout });
  return logger;
}

export function createLogger(base: LogFields = {}, logger: PowertoolsLogger = powertools()): Logger {
  const fields = (extra: LogFields = {}) => {
    const id = correlationId();
    return { ...base, ...(id ? { correlation_id: id } : {}), ...extra };
  };
  return {
    info: (message, extra) => logger.info(message, fields(extra)),
    error: (message, extra) => logger.error(message, fields(extra)),
    child: (more) => createLogger({ ...base, ...more }, logger),
  };
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: { name: err.name, message: err.message, stack: err.stack } } : { error: String(err) };
}
