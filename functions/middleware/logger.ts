import { Console } from 'node:console';
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { correlationId } from '../core/platform/correlation.js';
import { environment } from '../core/platform/config.js';

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

/** Made on the first line, so LOG_LEVEL is read when the process has set it (tests set it after importing). */
const lazy = (): (() => PowertoolsLogger) => {
  let logger: PowertoolsLogger | undefined;
  return () => (logger ??= powertools());
};

export function createLogger(base: LogFields = {}, logger: () => PowertoolsLogger = lazy()): Logger {
  const fields = (extra: LogFields = {}) => {
    const id = correlationId();
    return { ...base, ...(id ? { correlation_id: id } : {}), ...extra };
  };
  const silent = () => environment().LOG_LEVEL === 'silent';
  return {
    info: (message, extra) => void (silent() || logger().info(message, fields(extra))),
    error: (message, extra) => void (silent() || logger().error(message, fields(extra))),
    child: (more) => createLogger({ ...base, ...more }, logger),
  };
}

export function errorFields(err: unknown): LogFields {
  return err instanceof Error ? { error: { name: err.name, message: err.message, stack: err.stack } } : { error: String(err) };
}
