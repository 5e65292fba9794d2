import { enableMonitoring } from '../../functions/core/registration-monitoring/account.js';
import type { OpsCommand, OpsKit } from './kit.js';

/**
 * The registration monitoring family's operator commands, registered by
 * bin/ops.ts (design registration-monitoring section 12).
 */

export const MONITORING_OPTIONS = {
  'owner-name': { type: 'string' },
  'owner-email': { type: 'string' },
} as const;

export function registrationMonitoringCommands(k: OpsKit): Record<string, OpsCommand> {
  return {
    'monitoring enable': {
      options: ['client-id', 'owner-name', 'owner-email'],
      usage: '--client-id ID --owner-name NAME --owner-email EMAIL   include registration monitoring in the account, with its first owner (again: prints that owner)',
      run: async () => k.print(await enableMonitoring(k.deps(), k.text('client-id'), { name: k.text('owner-name'), email: k.text('owner-email') })),
    },
  };
}
