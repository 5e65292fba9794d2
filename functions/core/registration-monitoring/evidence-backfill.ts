import { toEpochSeconds } from '../platform/clock.js';
import { upgradeScanned } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { familyPrefix } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { alertKeys } from './alerts.js';
import { retentionFields } from './evidence-retention.js';
import { evidenceKeys } from './evidence.js';
import { MONITORING_FAMILY } from './registers.js';

/**
 * Gives checks, evidence and resolved alerts written before retention their
 * end (evidence-retention.ts): `retention_until` from the check (evidence
 * already states it) and the table's `ttl`. Only items without a `ttl` are
 * written, so it is safe to run again and while the API serves.
 */
export const backfillRegistrationRetention = (deps: Deps): Promise<number> =>
  upgradeScanned(
    deps,
    {
      expression:
        'attribute_not_exists(#ttl) AND (begins_with(sk, :checks) OR begins_with(sk, :evidence) OR (begins_with(sk, :alerts) AND #status = :resolved))',
      names: { '#ttl': 'ttl', '#status': 'status' },
      values: {
        ':checks': familyPrefix(TABLE_KEYS.client.sk.verification, MONITORING_FAMILY),
        ':evidence': evidenceKeys.prefix(),
        ':alerts': alertKeys.prefix(),
        ':resolved': 'resolved',
      },
    },
    (item) => {
      if (String(item.sk).startsWith(evidenceKeys.prefix())) return { ttl: toEpochSeconds(new Date(String(item.retention_until))) };
      // A resolved alert is kept from the check that resolved it; a check from itself.
      return retentionFields(deps, String(String(item.sk).startsWith(alertKeys.prefix()) ? item.resolved_at : item.checked_at));
    },
    { expression: 'attribute_exists(pk) AND attribute_not_exists(#ttl)', names: { '#ttl': 'ttl' } },
  );
