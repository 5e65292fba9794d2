#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isDomainError } from '../functions/core/platform/errors.js';
import { OPS, opsTree, resolve } from '../lib/ops/grammar.js';
import { OPS_AREAS as AREAS } from '../lib/ops/areas.js';
import { opsKit, UsageError, type OptionSpec, type OptionValues } from '../lib/ops/kit.js';

/**
 * The operator CLI: `ops <family> <resource> <action>` for a family's work,
 * `ops <resource> <action>` for shared work, `--help` at every level
 * (lib/ops/grammar.ts). It runs the same core code as the Lambdas, against
 * the local stack (default: $DATA_DIR/local.json of a running `npm start`) or
 * a deployed table (`--table NAME`, with the usual AWS credentials and
 * region). Output is JSON with the API's snake_case names; a mistake in the
 * command line is one line on stderr and exit 2.
 */

/** Options every command takes. */
const COMMON: Record<string, OptionSpec> = { table: { type: 'string' }, bucket: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } };
const OPTIONS: Record<string, OptionSpec> = { ...Object.fromEntries(AREAS.flatMap((a) => Object.entries(a.options))), ...COMMON };

function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS, strict: true });
  } catch (err) {
    // node:util's message, without its hint about `--` (which ends npm's options here, not ours).
    throw new UsageError(`${(err as Error).message.split('. To specify')[0]!.replace(/\.$/, '')} (see ${OPS} --help)`);
  }
}

try {
  const { values, positionals } = parse();
  const opts = values as OptionValues;
  const word: string[] = [];
  const found = resolve(opsTree(AREAS, opsKit(opts, word)), positionals, opts.help === true);
  if (found.notice) console.error(found.notice);
  if ('help' in found) {
    console.log(found.help);
  } else {
    const name = found.node.path.join(' ');
    const given = Object.keys(opts).filter((o) => opts[o] !== undefined && opts[o] !== OPTIONS[o]!.default);
    const foreign = given.filter((o) => !found.command.options.includes(o) && !(o in COMMON));
    if (foreign.length) throw new UsageError(`${name} does not take ${foreign.map((o) => `--${o}`).join(', ')} (see ${OPS} ${name} --help)`);
    word.push(...found.rest);
    await found.command.run();
  }
} catch (err) {
  if (err instanceof UsageError || isDomainError(err)) {
    console.error(err.message);
    process.exit(2);
  }
  // Not the operator's mistake: one line, with the stack only when asked for.
  console.error(
    `ops failed: ${err instanceof Error ? err.message : String(err)}${process.env.LOG_LEVEL === 'debug' ? `\n${(err as Error).stack}` : ' (LOG_LEVEL=debug shows the stack)'}`,
  );
  process.exit(1);
}
