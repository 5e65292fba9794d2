import { listAudits } from '../../functions/core/data-rights/records.js';
import type { OpsArea, OpsCommand, OpsKit } from './kit.js';

/** The audit of data subject requests (exports and erasures): kept six years, with the address's hash, never the address. */
export const dataSubjectCommands = (k: OpsKit): Record<string, OpsCommand> => ({
  'data-subjects list': {
    options: ['client-id'],
    args: '[--client-id ID]',
    about: 'exports and erasures: who asked, when, the address hash, the counts',
    run: async () => k.print(await listAudits(k.deps(), k.maybe('client-id'))),
  },
});

export const dataSubjectOps: OpsArea = { options: {}, commands: dataSubjectCommands };
