import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DOCUMENTS_BUCKET_ENV } from '../../functions/core/documents/kinds.js';
import { depsFromEnv, type Deps } from '../../functions/core/platform/deps.js';
import type { FamilyId } from '../../functions/core/platform/families.js';
import type { LocalInfo } from '../local/stack.js';

/**
 * What every operator command is given: the table it works on, and its
 * options read with one-line errors (exit 2) for a mistake in the command
 * line. Each family's commands live in lib/ops/<family>.ts as an OpsArea;
 * lib/ops/grammar.ts makes them one tree (`<family> <resource> <action>`,
 * `<resource> <action>` for shared work) that bin/ops.ts runs.
 */

export class UsageError extends Error {}

export interface OpsCommand {
  /** Options it takes, besides --table, --bucket and --help. */
  options: string[];
  /** Its options as the help shows them ('' when it takes none). */
  args: string;
  /** What it does, in one line. */
  about: string;
  /** It also takes one word after the action (`clients disable ID`): read with OpsKit.positionals. */
  word?: boolean;
  run: () => Promise<void>;
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** A node:util parseArgs option. */
export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; default?: string | boolean; short?: string };

/**
 * One family's operator commands (`family` set: `ops <family> <resource> <action>`)
 * or shared ones (`ops <resource> <action>`), keyed `'<resource> <action>'`,
 * with the options they read.
 */
export interface OpsArea {
  family?: FamilyId;
  options: Record<string, OptionSpec>;
  commands: (k: OpsKit) => Record<string, OpsCommand>;
  /**
   * Names from before this grammar (`'bookings cancel': 'training-booking cancel'`,
   * or the same words for every command): still run, with a one-line notice,
   * for one release. Commands added since have none.
   */
  formerly?: Record<string, string> | ((name: string) => string);
}

export interface OpsKit {
  /** The table the command works on, and whether it is the local stack's. */
  target: () => { deps: Deps; local: boolean };
  deps: () => Deps;
  /** The raw option values (flags such as --on, --invoice; repeated options). */
  opts: OptionValues;
  /** The word after the action, for a command that takes one (`clients disable ID`). */
  positionals: string[];
  text: (name: string) => string;
  /** A flag's value (`--on`), false when absent. */
  flag: (name: string) => boolean;
  /** A text option's value, or undefined when absent. */
  maybe: (name: string) => string | undefined;
  /** Every value of an option given more than once (`--window … --window …`). */
  list: (name: string) => string[];
  int: (name: string) => number;
  optional: <T>(name: string, read: (name: string) => T) => T | undefined;
  oneOf: <T extends string>(name: string, values: readonly T[]) => T;
  date: (name: string) => string;
  /** A file the command reads: a missing one is a usage error, not a stack trace. */
  file: (name: string) => Buffer;
  jsonFile: (name: string) => unknown;
  print: (value: unknown) => void;
}

/** `formerly` for an area whose resources were renamed and actions kept (`courses add` was `course add`). */
export const resourcesWere =
  (was: Record<string, string>) =>
  (name: string): string => {
    const [resource, action] = name.split(' ');
    return `${was[resource!] ?? resource} ${action}`;
  };

export function opsKit(opts: OptionValues, positionals: string[]): OpsKit {
  const text = (name: string): string => {
    const value = opts[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
    return value;
  };
  const file = (name: string): Buffer => {
    const path = text(name);
    if (!existsSync(path)) throw new UsageError(`--${name} ${path}: no such file`);
    return readFileSync(path);
  };
  const target = (): { deps: Deps; local: boolean } => {
    if (typeof opts.table === 'string') {
      if (typeof opts.bucket === 'string') process.env[DOCUMENTS_BUCKET_ENV] = opts.bucket;
      return { deps: depsFromEnv({ ...process.env, TABLE_NAME: opts.table }), local: false };
    }
    const infoPath = join(process.env.DATA_DIR ?? '.data', 'local.json');
    if (!existsSync(infoPath)) {
      throw new UsageError(
        `No local stack found (${infoPath} is missing): start it with \`npm start\`; a stack started with DATA_DIR=… is found with the same DATA_DIR here. Or pass --table NAME for a deployed table.`,
      );
    }
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as LocalInfo;
    Object.assign(process.env, {
      AWS_REGION: info.region,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: info.dynamodb_endpoint,
      AWS_ENDPOINT_URL_S3: info.sqs_endpoint,
      [DOCUMENTS_BUCKET_ENV]: info.documents_bucket,
      EVIDENCE_DIR: join(dirname(info.mailbox_dir), 'evidence'),
    });
    return { deps: depsFromEnv({ ...process.env, TABLE_NAME: info.table_name }), local: true };
  };
  const kit: OpsKit = {
    target,
    deps: () => target().deps,
    opts,
    positionals,
    text,
    flag: (name) => opts[name] === true,
    maybe: (name) => (typeof opts[name] === 'string' ? opts[name] : undefined),
    list: (name) => {
      const value = opts[name];
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    },
    int: (name) => {
      const value = Number(text(name));
      if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number`);
      return value;
    },
    optional: (name, read) => (opts[name] === undefined ? undefined : read(name)),
    oneOf: <T extends string>(name: string, values: readonly T[]): T => {
      const value = text(name);
      if (!values.includes(value as T)) throw new UsageError(`--${name} is one of ${values.join(', ')}`);
      return value as T;
    },
    date: (name) => {
      const value = text(name);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError(`--${name} is YYYY-MM-DD`);
      return value;
    },
    file,
    jsonFile: (name) => {
      try {
        return JSON.parse(file(name).toString('utf8')) as unknown;
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`--${name} ${String(opts[name])} is not JSON: ${(err as Error).message}`);
      }
    },
    print: (value) => console.log(JSON.stringify(value, null, 2)),
  };
  return kit;
}
