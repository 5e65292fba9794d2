#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cancelBooking, completeInterview, markAttendance, rescheduleBooking } from '../functions/core/bookings/booking-admin.js';
import { CLINICAL_FAMILY, createInterviewType, createInterviewer, loadCatalog, setAvailability, setInterviewTypeActive } from '../functions/core/clinical-interview/catalog.js';
import { createClient, listClients, rotateClientSecret, setClientEnabled, setInvoiceEnabled, setReferenceRequestsEnabled } from '../functions/core/access/clients.js';
import { expireDueRequests } from '../functions/core/portal-v2/reference-requests.js';
import { createTemplate, listTemplates } from '../functions/core/portal-v2/templates.js';
import { toCsv } from '../functions/core/platform/csv.js';
import { depsFromEnv, type Deps } from '../functions/core/platform/deps.js';
import { seedDemoData } from '../functions/core/demo-data.js';
import { DomainError, isDomainError } from '../functions/core/platform/errors.js';
import { attachReport, createS3Client } from '../functions/core/documents/report-uploads.js';
import { ledgerForMonth } from '../functions/core/commerce/ledger.js';
import { topUpCredits, topUpMoney } from '../functions/core/commerce/wallets.js';
import type { LocalInfo } from '../lib/local/stack.js';

/**
 * The operator CLI. It runs the same core code as the Lambdas, against the
 * local stack (default: $DATA_DIR/local.json of a running `npm start`) or a
 * deployed table (`--table NAME`, with the usual AWS credentials and region).
 */

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
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
    file: { type: 'string' },
    month: { type: 'string' },
    csv: { type: 'boolean', default: false },
    table: { type: 'string' },
    bucket: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

class UsageError extends Error {}

function target(): { deps: Deps; local: boolean } {
  if (opts.table) {
    if (opts.bucket) process.env.REPORTS_BUCKET = opts.bucket;
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
    REPORTS_BUCKET: info.reports_bucket,
  });
  return { deps: depsFromEnv({ ...process.env, TABLE_NAME: info.table_name }), local: true };
}

const text = (name: keyof typeof opts): string => {
  const value = opts[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};
const int = (name: keyof typeof opts): number => {
  const value = Number(text(name));
  if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number`);
  return value;
};
/** The client a command is about: `--client-id ID`, or the id after the command (`clients disable ID`). */
const clientIdArg = (): string => positionals[2] ?? text('client-id');
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

interface Command {
  usage: string;
  run: () => Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  'clients create': {
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
    usage: '                                             list clients',
    run: async () =>
      console.table(
        (await listClients(target().deps)).map((c) => ({
          client_id: c.clientId,
          name: c.name,
          invoicing: c.invoiceEnabled,
          references: c.referenceRequestsEnabled,
          disabled: c.disabled,
          created_at: c.createdAt,
        })),
      ),
  },
  'clients rotate-secret': {
    usage: '--client-id ID                      issue a new secret; the old one and every token issued so far stop working',
    run: async () => {
      const clientId = clientIdArg();
      print({ client_id: clientId, client_secret: await rotateClientSecret(target().deps, clientId) });
      console.error('Store the secret now: it is not shown again. The old secret and every token issued with it no longer work.');
    },
  },
  'clients disable': {
    usage: 'ID | --client-id ID                      refuse the client\'s credentials and end every token it holds',
    run: async () => {
      const clientId = clientIdArg();
      await setClientEnabled(target().deps, clientId, false);
      console.log(`Client ${clientId} disabled: its credentials are refused and its tokens no longer work`);
    },
  },
  'clients enable': {
    usage: 'ID | --client-id ID                       accept the client\'s credentials again (tokens from before stay void)',
    run: async () => {
      const clientId = clientIdArg();
      await setClientEnabled(target().deps, clientId, true);
      console.log(`Client ${clientId} enabled: it may exchange its credentials for new tokens`);
    },
  },
  'clients invoicing': {
    usage: '--client-id ID --on|--off               allow or stop pay_option "invoice"',
    run: async () => {
      if (opts.on === opts.off) throw new UsageError('give exactly one of --on and --off');
      await setInvoiceEnabled(target().deps, text('client-id'), opts.on);
      console.log(`Invoicing ${opts.on ? 'enabled' : 'disabled'} for ${opts['client-id']}`);
    },
  },
  'clients references': {
    usage: '--client-id ID --on|--off               include reference requests in the account (off: creating one is 403)',
    run: async () => {
      if (opts.on === opts.off) throw new UsageError('give exactly one of --on and --off');
      await setReferenceRequestsEnabled(target().deps, text('client-id'), opts.on);
      console.log(`Reference requests ${opts.on ? 'enabled' : 'disabled'} for ${opts['client-id']}`);
    },
  },
  'templates create': {
    usage: '--file TEMPLATE.json                  add a reference form template ({name, description, questions: [{id, kind: rating|text, label, required, weight}]})',
    run: async () => print(await createTemplate(target().deps, JSON.parse(readFileSync(text('file'), 'utf8')))),
  },
  'templates list': {
    usage: '                                          list reference form templates',
    run: async () => print(await listTemplates(target().deps)),
  },
  'references expire': {
    usage: '                                       expire reference requests whose time is up, now',
    run: async () => print({ expired: await expireDueRequests(target().deps) }),
  },
  'types create': {
    usage: '--name NAME --duration MINUTES --price PENCE     define an interview type',
    run: async () => print(await createInterviewType(target().deps, { name: text('name'), durationMinutes: int('duration'), priceMinor: int('price') })),
  },
  'types list': {
    usage: '                                              list interview types',
    run: async () => console.table((await loadCatalog(target().deps)).types.map((t) => ({ ...t, price: `${t.price.amount} ${t.price.currency}` }))),
  },
  'types deactivate': {
    usage: '--id ID                                 stop offering a type (bookings stay)',
    run: async () => setInterviewTypeActive(target().deps, int('id'), false),
  },
  'interviewers create': {
    usage: '--name NAME                          add an interviewer',
    run: async () => print(await createInterviewer(target().deps, text('name'))),
  },
  'interviewers list': {
    usage: '                                       list interviewers and their weekly availability',
    run: async () => print((await loadCatalog(target().deps)).interviewers),
  },
  'interviewers availability': {
    usage: '--id ID --window "TYPE_ID DAY HH:MM-HH:MM" …   replace the weekly availability (DAY: mon…sun)',
    run: async () => {
      const windows = (opts.window ?? []).map((w) => {
        const match = /^(\d+)\s+(mon|tue|wed|thu|fri|sat|sun)\s+(\d\d:\d\d)-(\d\d:\d\d)$/i.exec(w.trim());
        if (!match) throw new UsageError(`--window "${w}" is not "TYPE_ID DAY HH:MM-HH:MM"`);
        return { interviewTypeId: Number(match[1]), weekday: WEEKDAYS.indexOf(match[2]!.toLowerCase()) + 1, start: match[3]!, end: match[4]! };
      });
      await setAvailability(target().deps, int('id'), windows);
      console.log(`Interviewer ${opts.id}: ${windows.length} weekly window(s)`);
    },
  },
  'credits topup': {
    usage: '--client-id ID --type-id ID --credits N   add booking credits for an interview type',
    run: async () => {
      const { deps } = target();
      const type = (await loadCatalog(deps)).types.find((t) => t.id === int('type-id'));
      if (!type) throw new DomainError('not-found', `No interview type ${opts['type-id']}`);
      print({ client_id: opts['client-id'], interview_type: type.name, credits: await topUpCredits(deps, text('client-id'), CLINICAL_FAMILY, type, int('credits'), opts.reason) });
    },
  },
  'money topup': {
    usage: '--client-id ID --pence N                  add to the booking money balance',
    run: async () => print({ client_id: opts['client-id'], balance_pence: await topUpMoney(target().deps, text('client-id'), CLINICAL_FAMILY, int('pence'), opts.reason) }),
  },
  'bookings cancel': {
    usage: '--id ID [--reason TEXT]                 cancel; credits or money go back',
    run: async () => print(await cancelBooking(target().deps, int('id'), opts.reason)),
  },
  'bookings reschedule': {
    usage: '--id ID --date YYYY-MM-DD --time HH:MM  move to another free slot',
    run: async () => print(await rescheduleBooking(target().deps, int('id'), { date: text('date'), time: text('time') })),
  },
  'bookings attendance': {
    usage: '--id ID --status attended|no_show   mark attendance',
    run: async () => {
      const status = text('status');
      if (status !== 'attended' && status !== 'no_show') throw new UsageError('--status is attended or no_show');
      print(await markAttendance(target().deps, int('id'), status));
    },
  },
  'bookings complete': {
    usage: '--id ID                               the interview took place',
    run: async () => print(await completeInterview(target().deps, int('id'))),
  },
  'bookings attach-report': {
    usage: '--id ID --file REPORT.pdf       attach the interview report',
    run: async () => {
      const { deps } = target();
      print(await attachReport(deps, createS3Client(), int('id'), readFileSync(text('file'))));
    },
  },
  ledger: {
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
  'seed-demo': {
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
                   (attach-report also needs --bucket NAME, the reports bucket)
`;

try {
  const [group, action] = positionals;
  const command = group && (COMMANDS[`${group} ${action}`] ?? (action === undefined ? COMMANDS[group] : undefined));
  if (opts.help || !group) console.log(USAGE);
  else if (!command) throw new UsageError(`Unknown command "${positionals.join(' ')}"\n\n${USAGE}`);
  else await command.run();
} catch (err) {
  if (err instanceof UsageError || isDomainError(err)) {
    console.error(err.message);
    process.exit(2);
  }
  throw err;
}
