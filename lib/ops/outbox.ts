import { listParked, retryParked } from '../../functions/core/events/parked.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/** The relay's parked items: outbox items a queue refused on every try, set aside so that the relay went on. */

export const OUTBOX_OPTIONS = {
  retry: { type: 'string', multiple: true },
} as const;

export const outboxCommands = (k: OpsKit): Record<string, OpsCommand> => ({
  'outbox parked': {
    options: ['retry'],
    args: '[--retry ID ... | --retry all]',
    about: 'list parked outbox items, or send them again',
    run: async () => {
      const retry = k.list('retry');
      if (retry.length === 0) return k.print(await listParked(k.deps()));
      if (retry.includes('all') && retry.length > 1) throw new UsageError('--retry all stands alone');
      const { retried, unknown } = await retryParked(k.deps(), retry.includes('all') ? 'all' : retry);
      if (unknown.length) console.error(`Not parked: ${unknown.join(', ')}`);
      k.print({ retried });
      if (unknown.length) process.exitCode = 2;
    },
  },
});

export const outboxOps: OpsArea = { options: OUTBOX_OPTIONS, commands: outboxCommands };
