#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isDomainError } from '../functions/core/platform/errors.js';
import { CLIENT_OPTIONS, clientCommands, TAKES_CLIENT_WORD } from '../lib/ops/clients.js';
import { CLINICAL_OPTIONS, clinicalInterviewCommands } from '../lib/ops/clinical-interview.js';
import { opsKit, UsageError, type OpsCommand, type OptionValues } from '../lib/ops/kit.js';
import { portalV2Commands } from '../lib/ops/portal-v2.js';
import { PRACTICAL_OPTIONS, practicalTrainingCommands } from '../lib/ops/practical-training.js';
import { VLS_OPTIONS, virtualLifeSupportCommands } from '../lib/ops/virtual-life-support.js';
import { MONITORING_OPTIONS, registrationMonitoringCommands } from '../lib/ops/registration-monitoring.js';
import { TEAM_OPTIONS, teamCommands } from '../lib/ops/team.js';
import { OUTBOX_OPTIONS, outboxCommands } from '../lib/ops/outbox.js';
import { dataSubjectCommands } from '../lib/ops/data-subjects.js';

/**
 * The operator CLI. It runs the same core code as the Lambdas, against the
 * local stack (default: $DATA_DIR/local.json of a running `npm start`) or a
 * deployed table (`--table NAME`, with the usual AWS credentials and region).
 * Output is JSON with the API's snake_case names; a mistake in the command
 * line is one line on stderr and exit 2. Each family's commands are in
 * lib/ops/<family>.ts.
 */

const OPTIONS = {
  ...CLIENT_OPTIONS,
  ...CLINICAL_OPTIONS,
  ...PRACTICAL_OPTIONS,
  ...VLS_OPTIONS,
  ...MONITORING_OPTIONS,
  ...TEAM_OPTIONS,
  ...OUTBOX_OPTIONS,
  table: { type: 'string' },
  bucket: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
type OptionName = keyof typeof OPTIONS;
/** Options every command takes. */
const COMMON: OptionName[] = ['table', 'bucket', 'help'];

function parse() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS, strict: true });
  } catch (err) {
    // node:util's message, without its hint about `--` (which ends npm's options here, not ours).
    throw new UsageError(`${(err as Error).message.split('. To specify')[0]!.replace(/\.$/, '')} (see npm run ops -- --help)`);
  }
}
let opts = {} as ReturnType<typeof parse>['values'];
let positionals: string[] = [];

/** Every command; the kit reads the options parsed when a command runs. */
const commands = (): Record<string, OpsCommand> => {
  const k = opsKit(opts as OptionValues, positionals);
  const { 'seed-demo': seedDemo, ...clients } = clientCommands(k);
  return { ...clients, ...portalV2Commands(k), ...clinicalInterviewCommands(k), ...practicalTrainingCommands(k), ...virtualLifeSupportCommands(k), ...registrationMonitoringCommands(k), ...teamCommands(k), ...outboxCommands(k), ...dataSubjectCommands(k), 'seed-demo': seedDemo! };
};
let COMMANDS = commands();

const USAGE = `Usage: npm run ops -- <command> [options]

${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name} ${c.usage}`)
  .join('\n')}

Target:
  (default)        the running local stack, found through $DATA_DIR/local.json (DATA_DIR defaults to .data)
  --table NAME     a deployed table; region and credentials come from the AWS environment
                   (attach-report also needs --bucket NAME, the documents bucket)
`;

function commandOf(): { name: string; command: OpsCommand } | undefined {
  const [group, action] = positionals;
  if (!group) return undefined;
  const name = COMMANDS[`${group} ${action}`] ? `${group} ${action}` : group;
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${positionals.join(' ')}" (see npm run ops -- --help)`);
  // Only `clients disable|enable|rotate-secret|portal-v1 ID` take a word after the command.
  const words = name.split(' ').length + (TAKES_CLIENT_WORD.includes(name) ? 1 : 0);
  if (positionals.length > words) throw new UsageError(`Unexpected "${positionals.slice(words).join(' ')}" after ${name}`);
  return { name, command };
}

try {
  ({ values: opts, positionals } = parse());
  COMMANDS = commands();
  const found = commandOf();
  if (opts.help || !found) {
    console.log(found ? `Usage: npm run ops -- ${found.name} ${found.command.usage.trim()}` : USAGE);
  } else {
    const given = (Object.keys(opts) as OptionName[]).filter((o) => opts[o] !== undefined && opts[o] !== (OPTIONS[o] as { default?: unknown }).default);
    const foreign = given.filter((o) => !found.command.options.includes(o) && !COMMON.includes(o));
    if (foreign.length) throw new UsageError(`${found.name} does not take ${foreign.map((o) => `--${o}`).join(', ')} (see npm run ops -- ${found.name} --help)`);
    await found.command.run();
  }
} catch (err) {
  if (err instanceof UsageError || isDomainError(err)) {
    console.error(err.message);
    process.exit(2);
  }
  // Not the operator's mistake: one line, with the stack only when asked for.
  console.error(`ops failed: ${err instanceof Error ? err.message : String(err)}${process.env.LOG_LEVEL === 'debug' ? `\n${(err as Error).stack}` : ' (LOG_LEVEL=debug shows the stack)'}`);
  process.exit(1);
}
