import { listClients } from '../../functions/core/access/clients.js';
import { rollupMonth } from '../../functions/core/registration-monitoring/billing.js';
import { dispatchDue } from '../../functions/core/registration-monitoring/due.js';
import { verifyChains } from '../../functions/core/registration-monitoring/evidence.js';
import { enableMonitoring } from '../../functions/core/registration-monitoring/account.js';
import type { AnnotationType, NormalisedStatus } from '../../functions/core/registration-monitoring/register-adapter.js';
import { normaliseNumber, registerOfNumber } from '../../functions/core/registration-monitoring/registers.js';
import { REGISTRATION_STATUSES } from '../../functions/core/registration-monitoring/registration-statuses.js';
import { SEED_MAX_PER_REGISTER, seedRegister } from '../../functions/core/registration-monitoring/register-seed.js';
import { addTimelineStep, showEntry } from '../../functions/core/registration-monitoring/simulated-register.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/**
 * The registration monitoring family's operator commands
 * (`ops registration-monitoring …`), and the simulated register's controls
 * (`… register …`), so every alert path can be driven by hand.
 */

export const MONITORING_OPTIONS = {
  number: { type: 'string' },
  annotation: { type: 'string' },
  at: { type: 'string' },
  count: { type: 'string' },
} as const;

const STATUSES: readonly NormalisedStatus[] = REGISTRATION_STATUSES;
const ANNOTATIONS: readonly AnnotationType[] = ['conditions_of_practice', 'interim_conditions', 'undertakings', 'caution', 'warning'];

export function registrationMonitoringCommands(k: OpsKit): Record<string, OpsCommand> {
  const numberOf = () => {
    const number = normaliseNumber(k.text('number'));
    const register = registerOfNumber(number);
    if (!register) throw new UsageError(`--number ${number} is not an NMC, HCPC or GMC number`);
    return { register, number };
  };
  const step = (at: string) => ({
    at,
    set: { status: k.oneOf('status', STATUSES), annotation: k.optional('annotation', (n) => k.oneOf(n, ANNOTATIONS)) ?? null },
  });
  return {
    'account enable': {
      options: ['client-id', 'owner-name', 'owner-email'],
      args: '--client-id ID --owner-name NAME --owner-email EMAIL',
      about: 'include registration monitoring in the account, with its first owner (again: prints that owner)',
      run: async () => k.print(await enableMonitoring(k.deps(), k.text('client-id'), { name: k.text('owner-name'), email: k.text('owner-email') })),
    },
    'evidence verify': {
      options: ['client-id'],
      args: '[--client-id ID]',
      about: 'walk every evidence chain (of one client, or all): re-hash each record and check each link; names the first broken link and exits 1',
      run: async () => {
        const deps = k.deps();
        const only = k.optional('client-id', k.text);
        const clients = only ? [only] : (await listClients(deps)).filter((c) => c.monitoringEnabled).map((c) => c.clientId);
        let records = 0;
        for (const clientId of clients) {
          const checked = await verifyChains(deps, clientId);
          records += checked.records;
          if (checked.broken) {
            k.print({ ok: false, records_checked: records, broken: checked.broken });
            process.exitCode = 1;
            return;
          }
        }
        k.print({ ok: true, clients: clients.length, records_checked: records });
      },
    },
    'checks run-due': {
      options: [],
      args: '',
      about: 'queue the checks that are due now (what the monitoring-dispatch schedule does every 5 minutes)',
      run: async () => k.print(await dispatchDue(k.deps())),
    },
    'usage rollup': {
      options: ['month'],
      args: '--month YYYY-MM',
      about: "an ended month's usage to the ledger, one monitoring_usage entry per client (again: the same entries, nothing new)",
      run: async () => {
        const month = k.text('month');
        if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError('--month is YYYY-MM');
        k.print(await rollupMonth(k.deps(), month));
      },
    },
    'register seed': {
      options: ['count'],
      args: '[--count N]',
      about: `the simulated register: plausible entries (N per register, default 20, at most ${SEED_MAX_PER_REGISTER}) beside the magic numbers; again: nothing new`,
      run: async () => {
        const count = k.optional('count', k.int) ?? 20;
        if (count < 1 || count > SEED_MAX_PER_REGISTER) throw new UsageError(`--count is 1 to ${SEED_MAX_PER_REGISTER}`);
        k.print({ simulated: true, ...(await seedRegister(k.deps(), count)) });
      },
    },
    // The simulated register's controls: `register <action>`.
    'register show': {
      options: ['number'],
      args: '--number NUMBER',
      about: "the simulated register: the number's scenario, its steps and what it answers now",
      run: async () => {
        const { register, number } = numberOf();
        k.print(await showEntry(k.deps(), register, number));
      },
    },
    'register set': {
      options: ['number', 'status', 'annotation'],
      args: `--number NUMBER --status ${STATUSES.join('|')} [--annotation ${ANNOTATIONS.join('|')}]`,
      about: 'the simulated register answers this from now on',
      run: async () => {
        const { register, number } = numberOf();
        const deps = k.deps();
        await addTimelineStep(deps, register, number, step(deps.clock().toISOString()));
        k.print(await showEntry(deps, register, number));
      },
    },
    'register timeline': {
      options: ['number', 'at', 'status', 'annotation'],
      args: '--number NUMBER --at ISO-TIME --status STATUS [--annotation TYPE]',
      about: 'the simulated register answers this from that time on',
      run: async () => {
        const { register, number } = numberOf();
        const at = new Date(k.text('at'));
        if (Number.isNaN(at.getTime())) throw new UsageError('--at is an ISO 8601 time, for example 2026-12-01T09:00:00Z');
        const deps = k.deps();
        await addTimelineStep(deps, register, number, step(at.toISOString()));
        k.print(await showEntry(deps, register, number));
      },
    },
  };
}

export const registrationMonitoringOps: OpsArea = {
  family: 'registration-monitoring',
  options: MONITORING_OPTIONS,
  commands: registrationMonitoringCommands,
  formerly: {
    'account enable': 'monitoring enable',
    'evidence verify': 'monitoring evidence-verify',
    'checks run-due': 'monitoring run-due',
    'usage rollup': 'monitoring rollup',
    'register show': 'register show',
    'register set': 'register set',
    'register timeline': 'register timeline',
  },
};
