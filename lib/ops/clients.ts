import { createClient, listClients, rotateClientSecret, setClientEnabled, setFamilyAccess, type ClientAccount } from '../../functions/core/access/clients.js';
import { setInvoiceEnabled, setReferenceRequestsEnabled } from '../../functions/core/access/account-settings.js';
import { deprecatedCallers } from '../../functions/core/access/deprecated-calls.js';
import { backfillBookingLogs } from '../../functions/core/bookings/backfill.js';
import { backfillLockIndex } from '../../functions/core/inventory/units.js';
import { backfillReferenceRetention } from '../../functions/core/portal-v2/references.js';
import { backfillRegistrationRetention } from '../../functions/core/registration-monitoring/evidence-backfill.js';
import { reindexVlsSessions } from '../../functions/core/virtual-life-support/catalogue.js';
import { ledgerForMonth, ledgerPagesForMonth } from '../../functions/core/commerce/ledger.js';
import { FAMILY_IDS, familySpec, isFamilyId } from '../../functions/core/platform/families.js';
import { seedDemoData } from '../../functions/core/demo-data.js';
import { csvLines } from '../../functions/core/platform/csv.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/** Operator commands shared by every family (`ops <resource> <action>`): client accounts, deprecated families' callers, the upgrade backfills, the month's ledger, the demo data. */

const clientView = (c: ClientAccount) => ({
  client_id: c.clientId,
  name: c.name,
  invoice_enabled: c.invoiceEnabled,
  reference_requests_enabled: c.referenceRequestsEnabled,
  disabled: c.disabled,
  created_at: c.createdAt,
});

/** The client a command is about: `--client-id ID`, or the id after the command (`clients disable ID`). */
const clientIdArg = (k: OpsKit): string => k.positionals[0] ?? k.text('client-id');

/** The month's ledger as finance reads it (`ops ledger list --csv`): docs/finance.md says what each column holds. */
export const LEDGER_CSV_COLUMNS = [
  'id',
  'created_at',
  'family',
  'client_id',
  'kind',
  'amount',
  'unit',
  'balance_after',
  'booking_id',
  'interview_type_id',
  'interview_type_name',
  'product_kind',
  'product_id',
  'product_name',
  'pay_option',
  'provider_reference',
  'refund_status',
  'fee',
  'note',
];

export const CLIENT_OPTIONS = {
  name: { type: 'string' },
  invoice: { type: 'boolean', default: false },
  'no-references': { type: 'boolean', default: false },
  'client-id': { type: 'string' },
  on: { type: 'boolean', default: false },
  off: { type: 'boolean', default: false },
  month: { type: 'string' },
  csv: { type: 'boolean', default: false },
  family: { type: 'string' },
  days: { type: 'string' },
} as const;

/** `clients disable|enable ID`. */
const enabling = (k: OpsKit, enabled: boolean, what: string, said: string): OpsCommand => ({
  options: ['client-id'],
  word: true,
  args: 'ID | --client-id ID',
  about: what,
  run: async () => {
    const clientId = clientIdArg(k);
    await setClientEnabled(k.deps(), clientId, enabled);
    console.log(`Client ${clientId} ${said}`);
  },
});

/** A setting of the account turned on or off: `--client-id ID --on|--off` (or `ID --on|--off`, for a command that takes a word). */
const switching = (k: OpsKit, what: string, setting: string, set: (deps: Deps, clientId: string, on: boolean) => Promise<void>): OpsCommand => ({
  options: ['client-id', 'on', 'off'],
  args: '--client-id ID --on|--off',
  about: what,
  run: async () => {
    if (k.flag('on') === k.flag('off')) throw new UsageError('give exactly one of --on and --off');
    const clientId = clientIdArg(k);
    await set(k.deps(), clientId, k.flag('on'));
    console.log(`${setting} ${k.flag('on') ? 'enabled' : 'disabled'} for ${clientId}`);
  },
});

export const clientCommands = (k: OpsKit): Record<string, OpsCommand> => ({
  'clients create': {
    options: ['name', 'invoice', 'no-references'],
    args: '--name NAME [--invoice] [--no-references]',
    about: 'create a client; its secret is shown once',
    run: async () => {
      const { client, clientSecret } = await createClient(k.deps(), {
        name: k.text('name'),
        invoiceEnabled: k.flag('invoice'),
        referenceRequestsEnabled: !k.flag('no-references'),
      });
      k.print({ client_id: client.clientId, client_secret: clientSecret, name: client.name });
      console.error('Store the secret now: it is not shown again.');
    },
  },
  'clients list': {
    options: [],
    args: '',
    about: 'list clients',
    run: async () => k.print((await listClients(k.deps())).map(clientView)),
  },
  'clients rotate-secret': {
    options: ['client-id'],
    word: true,
    args: 'ID | --client-id ID',
    about: 'issue a new secret; the old one and every token issued so far stop working',
    run: async () => {
      const clientId = clientIdArg(k);
      k.print({ client_id: clientId, client_secret: await rotateClientSecret(k.deps(), clientId) });
      console.error('Store the secret now: it is not shown again. The old secret and every token issued with it no longer work.');
    },
  },
  'clients disable': enabling(
    k,
    false,
    "refuse the client's credentials and end every token it holds",
    'disabled: its credentials are refused and its tokens no longer work',
  ),
  'clients enable': enabling(
    k,
    true,
    "accept the client's credentials again (tokens from before stay void)",
    'enabled: it may exchange its credentials for new tokens',
  ),
  'clients invoicing': switching(k, 'allow or stop pay_option "invoice"', 'Invoicing', setInvoiceEnabled),
  'clients references': switching(k, 'include reference requests in the account (off: creating one is 403)', 'Reference requests', setReferenceRequestsEnabled),
  'clients portal-v1': {
    ...switching(k, 'portal v1 for the client (off: every call is 403); --on is refused from its deprecation date', 'Portal v1', (deps, clientId, on) =>
      setFamilyAccess(deps, clientId, 'portal-v1', on),
    ),
    word: true,
    args: 'ID | --client-id ID --on|--off',
  },
  'deprecated callers': {
    options: ['family', 'days'],
    args: '--family FAMILY [--days 30]',
    about: 'who still calls a deprecated family: calls per UTC day and the last call, per client',
    run: async () => {
      const family = k.text('family');
      if (!isFamilyId(family) || !familySpec(family).deprecation)
        throw new UsageError(`--family must be a deprecated family (${FAMILY_IDS.filter((f) => familySpec(f).deprecation).join(', ')})`);
      const days = k.optional('days', k.int) ?? 30;
      if (days < 1 || days > 400) throw new UsageError('--days must be a whole number from 1 to 400');
      k.print(await deprecatedCallers(k.deps(), family, days));
    },
  },
  'backfill booking-logs': {
    options: [],
    args: '',
    about: 'once after upgrading: older bookings join the change log (Services feed) and the schedule (lists by time)',
    run: async () => k.print({ bookings: await backfillBookingLogs(k.deps()) }),
  },
  'backfill lock-index': {
    options: [],
    args: '',
    about: "once after upgrading: older holds and bookings' unit locks join the lock index (listings by date range)",
    run: async () => k.print({ locks: await backfillLockIndex(k.deps()) }),
  },
  'backfill session-index': {
    options: [],
    args: '',
    about: "once after upgrading: older life-support sessions join their course's index (timeslot listings)",
    run: async () => k.print({ sessions: await reindexVlsSessions(k.deps()) }),
  },
  'backfill registration-retention': {
    options: [],
    args: '',
    about: 'once after upgrading: older registration checks, evidence and resolved alerts get their retention end and TTL (six years from the check)',
    run: async () => k.print({ items: await backfillRegistrationRetention(k.deps()) }),
  },
  'backfill reference-retention': {
    options: [],
    args: '',
    about: 'once after upgrading: portal v2 reference requests closed earlier join the purge schedule (blanked six years after closing)',
    run: async () => k.print({ reference_requests: await backfillReferenceRetention(k.deps()) }),
  },
  'ledger list': {
    options: ['month', 'csv'],
    args: '--month YYYY-MM [--csv]',
    about: 'every ledger entry of the month, all clients and families',
    run: async () => {
      const month = k.text('month');
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError('--month is YYYY-MM');
      if (!k.flag('csv')) return k.print(await ledgerForMonth(k.deps(), month));
      // CSV is written a query page at a time: a busy month is millions of entries, never held at once.
      process.stdout.write(csvLines([LEDGER_CSV_COLUMNS]));
      for await (const page of ledgerPagesForMonth(k.deps(), month)) {
        const rows = page.map((e) => [
          e.id,
          e.created_at,
          e.family,
          e.client_id,
          e.kind,
          e.amount,
          e.unit,
          e.balance_after,
          e.booking_id,
          e.interview_type?.id,
          e.interview_type?.name,
          e.product?.kind,
          e.product?.id,
          e.product?.name,
          e.pay_option,
          e.provider_reference,
          e.refund_status,
          e.fee,
          e.note,
        ]);
        if (!process.stdout.write(csvLines(rows))) await new Promise((resolve) => process.stdout.once('drain', resolve));
      }
    },
  },
  'demo seed': {
    options: [],
    args: '',
    about: 'create the demo data (local stack only)',
    run: async () => {
      const { deps, local } = k.target();
      // The demo credentials are public (they are in this repository): never put them in a deployed table.
      if (!local) throw new UsageError('demo seed only runs against the local stack');
      k.print(await seedDemoData(deps));
    },
  },
});

export const sharedOps: OpsArea = {
  options: CLIENT_OPTIONS,
  commands: clientCommands,
  formerly: {
    'backfill booking-logs': 'bookings backfill-logs',
    'backfill lock-index': 'locks backfill-index',
    'backfill session-index': 'vls-sessions backfill-index',
    'ledger list': 'ledger',
    'demo seed': 'seed-demo',
  },
};
