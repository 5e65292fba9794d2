#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cancelBooking, completeInterview, markAttendance, rescheduleBooking } from '../functions/core/bookings/booking-admin.js';
import { BOOKING_STATUSES, type BookingStatus } from '../functions/core/bookings/bookings.js';
import { CLINICAL_FAMILY, createInterviewType, createInterviewer, loadCatalog, setAvailability, setInterviewTypeActive } from '../functions/core/clinical-interview/catalog.js';
import {
  interviewerView,
  operatorBooking,
  operatorBookings,
  typeView,
  weekdayNumber,
} from '../functions/core/clinical-interview/operator.js';
import { createClient, listClients, rotateClientSecret, setClientEnabled, setInvoiceEnabled, setReferenceRequestsEnabled, type ClientAccount } from '../functions/core/access/clients.js';
import { getReferenceRequest, listReferenceRequests } from '../functions/core/portal-v2/reference-requests.js';
import { expireDueRequestsOfEveryKind } from '../functions/core/portal-v2/request-kinds.js';
import { REQUEST_STATUSES, type RequestStatus } from '../functions/core/portal-v2/references.js';
import { createTemplate, listTemplates } from '../functions/core/portal-v2/templates.js';
import { toCsv } from '../functions/core/platform/csv.js';
import { depsFromEnv, type Deps } from '../functions/core/platform/deps.js';
import { seedDemoData } from '../functions/core/demo-data.js';
import { DomainError, isDomainError } from '../functions/core/platform/errors.js';
import { attachReport } from '../functions/core/clinical-interview/report-uploads.js';
import { createS3Client } from '../functions/core/documents/attach.js';
import { DOCUMENTS_BUCKET_ENV } from '../functions/core/documents/kinds.js';
import { ledgerForMonth } from '../functions/core/commerce/ledger.js';
import { topUpCredits, topUpMoney } from '../functions/core/commerce/wallets.js';
import type { LocalInfo } from '../lib/local/stack.js';
import { PRACTICAL_OPTIONS, practicalTrainingCommands } from '../lib/ops/practical-training.js';
import type { OpsKit } from '../lib/ops/kit.js';
import { MONITORING_OPTIONS, registrationMonitoringCommands } from '../lib/ops/registration-monitoring.js';

/**
 * The operator CLI. It runs the same core code as the Lambdas, against the
 * local stack (default: $DATA_DIR/local.json of a running `npm start`) or a
 * deployed table (`--table NAME`, with the usual AWS credentials and region).
 * Output is JSON with the API's snake_case names; a mistake in the command
 * line is one line on stderr and exit 2.
 */

class UsageError extends Error {}

const OPTIONS = {
  name: { type: 'string' },
  invoice: { type: 'boolean', default: false },
  'no-references': { type: 'boolean', default: false },
  'client-id': { type: 'string' },
  'type-id': { type: 'string' },
  id: { type: 'string' },
  duration: { type: 'string' },
  price: { type: 'string' },
  credits: { type: 'string' },
  pence: { type: 'string' },
  window: { type: 'string', multiple: true },
  on: { type: 'boolean', default: false },
  off: { type: 'boolean', default: false },
  reason: { type: 'string' },
  date: { type: 'string' },
  time: { type: 'string' },
  status: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  limit: { type: 'string' },
  file: { type: 'string' },
  month: { type: 'string' },
  csv: { type: 'boolean', default: false },
  table: { type: 'string' },
  bucket: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  ...PRACTICAL_OPTIONS,
  ...MONITORING_OPTIONS,
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

function target(): { deps: Deps; local: boolean } {
  if (opts.table) {
    if (opts.bucket) process.env[DOCUMENTS_BUCKET_ENV] = opts.bucket;
    return { deps: depsFromEnv({ ...process.env, TABLE_NAME: opts.table }), local: false };
  }
  const infoPath = join(process.env.DATA_DIR ?? '.data', 'local.json');
  if (!existsSync(infoPath)) {
    throw new UsageError(`No local stack found (${infoPath} is missing): start it with \`npm start\`, or pass --table NAME.`);
  }
  const info = JSON.parse(readFileSync(infoPath, 'utf8')) as LocalInfo;
  Object.assign(process.env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.dynamodb_endpoint,
    AWS_ENDPOINT_URL_S3: info.sqs_endpoint,
    [DOCUMENTS_BUCKET_ENV]: info.documents_bucket,
  });
  return { deps: depsFromEnv({ ...process.env, TABLE_NAME: info.table_name }), local: true };
}

const text = (name: OptionName): string => {
  const value = opts[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};
const int = (name: OptionName): number => {
  const value = Number(text(name));
  if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number`);
  return value;
};
const optional = <T>(name: OptionName, read: (name: OptionName) => T): T | undefined => (opts[name] === undefined ? undefined : read(name));
function oneOf<T extends string>(name: OptionName, values: readonly T[]): T {
  const value = text(name);
  if (!values.includes(value as T)) throw new UsageError(`--${name} is one of ${values.join(', ')}`);
  return value as T;
}
function date(name: OptionName): string {
  const value = text(name);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError(`--${name} is YYYY-MM-DD`);
  return value;
}
/** A file the command reads: a missing one is a usage error, not a stack trace. */
function file(name: OptionName): Buffer {
  const path = text(name);
  if (!existsSync(path)) throw new UsageError(`--${name} ${path}: no such file`);
  return readFileSync(path);
}
function jsonFile(name: OptionName): unknown {
  try {
    return JSON.parse(file(name).toString('utf8'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--${name} ${opts[name]} is not JSON: ${(err as Error).message}`);
  }
}
/** The client a command is about: `--client-id ID`, or the id after the command (`clients disable ID`). */
const clientIdArg = (): string => positionals[2] ?? text('client-id');
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
const clientView = (c: ClientAccount) => ({
  client_id: c.clientId,
  name: c.name,
  invoice_enabled: c.invoiceEnabled,
  reference_requests_enabled: c.referenceRequestsEnabled,
  disabled: c.disabled,
  created_at: c.createdAt,
});

interface Command {
  /** Options it takes, besides --table, --bucket and --help. */
  options: OptionName[];
  usage: string;
  run: () => Promise<void>;
}

/** What each family's commands are given (lib/ops/kit.ts). */
const kit: OpsKit = {
  deps: () => target().deps,
  text: (n) => text(n as OptionName),
  int: (n) => int(n as OptionName),
  optional: (n, read) => optional(n as OptionName, read as (name: OptionName) => never),
  oneOf: (n, values) => oneOf(n as OptionName, values),
  date: (n) => date(n as OptionName),
  print,
};

const COMMANDS: Record<string, Command> = {
  'clients create': {
    options: ['name', 'invoice', 'no-references'],
    usage: '--name NAME [--invoice] [--no-references]   create a client; its secret is shown once',
    run: async () => {
      const { client, clientSecret } = await createClient(target().deps, {
        name: text('name'),
        invoiceEnabled: opts.invoice,
        referenceRequestsEnabled: !opts['no-references'],
      });
      print({ client_id: client.clientId, client_secret: clientSecret, name: client.name });
      console.error('Store the secret now: it is not shown again.');
    },
  },
  'clients list': {
    options: [],
    usage: '                                             list clients',
    run: async () => print((await listClients(target().deps)).map(clientView)),
  },
  'clients rotate-secret': {
    options: ['client-id'],
    usage: '--client-id ID                      issue a new secret; the old one and every token issued so far stop working',
    run: async () => {
      const clientId = clientIdArg();
      print({ client_id: clientId, client_secret: await rotateClientSecret(target().deps, clientId) });
      console.error('Store the secret now: it is not shown again. The old secret and every token issued with it no longer work.');
    },
  },
  'clients disable': {
    options: ['client-id'],
    usage: 'ID | --client-id ID                      refuse the client\'s credentials and end every token it holds',
    run: async () => {
      const clientId = clientIdArg();
      await setClientEnabled(target().deps, clientId, false);
      console.log(`Client ${clientId} disabled: its credentials are refused and its tokens no longer work`);
    },
  },
  'clients enable': {
    options: ['client-id'],
    usage: 'ID | --client-id ID                       accept the client\'s credentials again (tokens from before stay void)',
    run: async () => {
      const clientId = clientIdArg();
      await setClientEnabled(target().deps, clientId, true);
      console.log(`Client ${clientId} enabled: it may exchange its credentials for new tokens`);
    },
  },
  'clients invoicing': {
    options: ['client-id', 'on', 'off'],
    usage: '--client-id ID --on|--off               allow or stop pay_option "invoice"',
    run: async () => {
      if (opts.on === opts.off) throw new UsageError('give exactly one of --on and --off');
      await setInvoiceEnabled(target().deps, text('client-id'), opts.on);
      console.log(`Invoicing ${opts.on ? 'enabled' : 'disabled'} for ${opts['client-id']}`);
    },
  },
  'clients references': {
    options: ['client-id', 'on', 'off'],
    usage: '--client-id ID --on|--off               include reference requests in the account (off: creating one is 403)',
    run: async () => {
      if (opts.on === opts.off) throw new UsageError('give exactly one of --on and --off');
      await setReferenceRequestsEnabled(target().deps, text('client-id'), opts.on);
      console.log(`Reference requests ${opts.on ? 'enabled' : 'disabled'} for ${opts['client-id']}`);
    },
  },
  'templates create': {
    options: ['file'],
    usage: '--file TEMPLATE.json                  add a reference form template ({name, description, questions: [{id, kind: rating|text, label, required, weight}]})',
    run: async () => {
      const input = jsonFile('file') as Parameters<typeof createTemplate>[1];
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new UsageError(`--file ${opts.file} must hold one JSON object`);
      print(await createTemplate(target().deps, { ...input, id: undefined }));
    },
  },
  'templates list': {
    options: [],
    usage: '                                          list reference form templates',
    run: async () => print(await listTemplates(target().deps)),
  },
  'references list': {
    options: ['client-id', 'status', 'limit'],
    usage: '--client-id ID [--status STATUS] [--limit N]   a client\'s reference requests, newest first, with their references',
    run: async () => {
      const status = optional('status', (n) => oneOf<RequestStatus>(n, REQUEST_STATUSES));
      const page = await listReferenceRequests(target().deps, text('client-id'), { status, limit: optional('limit', int) ?? 100 });
      print(page.data);
    },
  },
  'references show': {
    options: ['client-id', 'id'],
    usage: '--id ID [--client-id ID]                  one reference request with its references (any client\'s, without --client-id)',
    run: async () => {
      const { deps } = target();
      const id = int('id');
      const owners = opts['client-id'] ? [text('client-id')] : (await listClients(deps)).map((c) => c.clientId);
      for (const clientId of owners) {
        const found = await getReferenceRequest(deps, clientId, id).catch((err: unknown) => {
          if (isDomainError(err) && err.code === 'not-found') return undefined;
          throw err;
        });
        if (found) return print({ client_id: clientId, ...found });
      }
      throw new DomainError('not-found', `No reference request ${id}`);
    },
  },
  'references expire': {
    options: [],
    usage: '                                       expire reference requests whose time is up, now',
    run: async () => print({ expired: (await expireDueRequestsOfEveryKind(target().deps)).reference }),
  },
  'types create': {
    options: ['name', 'duration', 'price'],
    usage: '--name NAME --duration MINUTES --price PENCE     define an interview type',
    run: async () => print(typeView(await createInterviewType(target().deps, { name: text('name'), durationMinutes: int('duration'), priceMinor: int('price') }))),
  },
  'types list': {
    options: [],
    usage: '                                              list interview types',
    run: async () => print((await loadCatalog(target().deps)).types.map(typeView)),
  },
  'types deactivate': {
    options: ['id'],
    usage: '--id ID                                 stop offering a type (bookings stay)',
    run: async () => {
      await setInterviewTypeActive(target().deps, int('id'), false);
      console.log(`Interview type ${opts.id} is no longer offered`);
    },
  },
  'interviewers create': {
    options: ['name'],
    usage: '--name NAME                          add an interviewer',
    run: async () => print(interviewerView(await createInterviewer(target().deps, text('name')))),
  },
  'interviewers list': {
    options: [],
    usage: '                                       list interviewers and their weekly availability',
    run: async () => {
      const catalog = await loadCatalog(target().deps);
      print(catalog.interviewers.map((i) => interviewerView(i, catalog)));
    },
  },
  'interviewers availability': {
    options: ['id', 'window'],
    usage: '--id ID --window "TYPE_ID DAY HH:MM-HH:MM" …   replace the weekly availability (DAY: mon…sun); prints what it replaced',
    run: async () => {
      const windows = (opts.window ?? []).map((w) => {
        const match = /^(\d+)\s+(mon|tue|wed|thu|fri|sat|sun)\s+(\d\d:\d\d)-(\d\d:\d\d)$/i.exec(w.trim());
        if (!match) throw new UsageError(`--window "${w}" is not "TYPE_ID DAY HH:MM-HH:MM"`);
        return { interviewTypeId: Number(match[1]), weekday: weekdayNumber(match[2]!), start: match[3]!, end: match[4]! };
      });
      const { deps } = target();
      const id = int('id');
      const before = (await loadCatalog(deps)).interviewers.find((i) => i.id === id);
      if (!before) throw new DomainError('not-found', `No interviewer ${id}`);
      await setAvailability(deps, id, windows);
      const after = await loadCatalog(deps);
      print({ ...interviewerView(after.interviewers.find((i) => i.id === id)!, after), replaced: interviewerView(before, after).availability });
    },
  },
  'credits topup': {
    options: ['client-id', 'type-id', 'credits', 'reason'],
    usage: '--client-id ID --type-id ID --credits N [--reason TEXT]   add booking credits for an interview type',
    run: async () => {
      const { deps } = target();
      const type = (await loadCatalog(deps)).types.find((t) => t.id === int('type-id'));
      if (!type) throw new DomainError('not-found', `No interview type ${opts['type-id']}`);
      const credits = await topUpCredits(deps, text('client-id'), CLINICAL_FAMILY, type, int('credits'), opts.reason, { requireClient: true });
      print({ client_id: opts['client-id'], interview_type: { id: type.id, name: type.name }, credits });
    },
  },
  'money topup': {
    options: ['client-id', 'pence', 'reason'],
    usage: '--client-id ID --pence N [--reason TEXT]   add to the booking money balance',
    run: async () => {
      const amount = await topUpMoney(target().deps, text('client-id'), CLINICAL_FAMILY, int('pence'), opts.reason, { requireClient: true });
      print({ client_id: opts['client-id'], money: { amount, currency: 'GBP' } });
    },
  },
  'bookings list': {
    options: ['client-id', 'status', 'from', 'to', 'limit'],
    usage: '[--client-id ID] [--status STATUS] [--from DATE] [--to DATE] [--limit N]   bookings, newest first (every client\'s without --client-id)',
    run: async () =>
      print(
        await operatorBookings(target().deps, {
          clientId: opts['client-id'],
          status: optional('status', (n) => oneOf<BookingStatus>(n, BOOKING_STATUSES)),
          from: optional('from', date),
          to: optional('to', date),
          limit: optional('limit', int) ?? 100,
        }),
      ),
  },
  'bookings show': {
    options: ['id'],
    usage: '--id ID                                    one booking, as the agency sees it, with its client_id',
    run: async () => print(await operatorBooking(target().deps, int('id'))),
  },
  'bookings cancel': {
    options: ['id', 'reason'],
    usage: '--id ID [--reason TEXT]                 cancel; credits or money go back',
    run: async () => print(await cancelBooking(target().deps, int('id'), opts.reason)),
  },
  'bookings reschedule': {
    options: ['id', 'date', 'time'],
    usage: '--id ID --date YYYY-MM-DD --time HH:MM  move to another free slot (to where it already is: nothing changes)',
    run: async () => {
      const { deps } = target();
      const before = await operatorBooking(deps, int('id'));
      const booking = await rescheduleBooking(deps, int('id'), { date: date('date'), time: text('time') });
      print(booking);
      if (booking.start_date === before.start_date) console.error(`Booking ${opts.id} is already on ${opts.date} at ${opts.time}: nothing changed`);
    },
  },
  'bookings attendance': {
    options: ['id', 'status'],
    usage: '--id ID --status attended|no_show   mark attendance, once the interview has started',
    run: async () => print(await markAttendance(target().deps, int('id'), oneOf('status', ['attended', 'no_show'] as const))),
  },
  'bookings complete': {
    options: ['id'],
    usage: '--id ID                               the interview took place (refused before it starts)',
    run: async () => print(await completeInterview(target().deps, int('id'))),
  },
  'bookings attach-report': {
    options: ['id', 'file'],
    usage: '--id ID --file REPORT.pdf       attach the interview report of a completed interview',
    run: async () => {
      const report = file('file');
      print(await attachReport(target().deps, createS3Client(), int('id'), report));
    },
  },
  ledger: {
    options: ['month', 'csv'],
    usage: '--month YYYY-MM [--csv]                          every ledger entry of the month, all clients and families',
    run: async () => {
      const month = text('month');
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError('--month is YYYY-MM');
      const entries = await ledgerForMonth(target().deps, month);
      if (!opts.csv) return print(entries);
      process.stdout.write(
        toCsv(
          ['id', 'created_at', 'family', 'client_id', 'kind', 'amount', 'unit', 'balance_after', 'booking_id', 'interview_type_id', 'interview_type_name', 'note'],
          entries.map((e) => [e.id, e.created_at, e.family, e.client_id, e.kind, e.amount, e.unit, e.balance_after, e.booking_id, e.interview_type?.id, e.interview_type?.name, e.note]),
        ),
      );
    },
  },
  ...(practicalTrainingCommands(kit) as Record<string, Command>),
  ...(registrationMonitoringCommands(kit) as Record<string, Command>),
  'seed-demo': {
    options: [],
    usage: '                                               create the demo data (local stack only)',
    run: async () => {
      const { deps, local } = target();
      // The demo credentials are public (they are in this repository): never put them in a deployed table.
      if (!local) throw new UsageError('seed-demo only runs against the local stack');
      print(await seedDemoData(deps));
    },
  },
};

const USAGE = `Usage: npm run ops -- <command> [options]

${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name} ${c.usage}`)
  .join('\n')}

Target:
  (default)        the running local stack, found through $DATA_DIR/local.json (DATA_DIR defaults to .data)
  --table NAME     a deployed table; region and credentials come from the AWS environment
                   (attach-report also needs --bucket NAME, the documents bucket)
`;

function commandOf(): { name: string; command: Command } | undefined {
  const [group, action] = positionals;
  if (!group) return undefined;
  const name = COMMANDS[`${group} ${action}`] ? `${group} ${action}` : group;
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${positionals.join(' ')}" (see npm run ops -- --help)`);
  // Only `clients disable|enable|rotate-secret ID` take a word after the command.
  const words = name.split(' ').length + (['clients disable', 'clients enable', 'clients rotate-secret'].includes(name) ? 1 : 0);
  if (positionals.length > words) throw new UsageError(`Unexpected "${positionals.slice(words).join(' ')}" after ${name}`);
  return { name, command };
}

try {
  ({ values: opts, positionals } = parse());
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
