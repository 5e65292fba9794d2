import { clientKeys } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { deleteItem, itemAbsent, part, putItem, type Part } from '../platform/transact.js';
import { MONITORING_FAMILY as FAMILY, type Register, type Registration } from './registers.js';
import type { WorkerInput } from './workers.js';

/**
 * The guards that keep `(register, number)` and `external_ref` unique among a
 * client's workers: one item each, written in the worker's own transactions
 * (a second holder fails its condition: `worker-duplicate`).
 */

const CLIENT = TABLE_KEYS.client;
/** The guards' keys; ./workers.ts lists them among the worker's (so the key registry's test covers them). */
export const registrationGuardKey = (clientId: string, register: Register, number: string) => ({
  pk: clientKeys.partition(clientId),
  sk: key(CLIENT.sk.workerGuard, FAMILY, 'reg', register, number),
});
export const externalRefGuardKey = (clientId: string, ref: string) => ({
  pk: clientKeys.partition(clientId),
  sk: key(CLIENT.sk.workerGuard, FAMILY, 'ref', ref),
});

export const sameRegistration = (a: Registration, b: Registration) => a.register === b.register && a.number === b.number;

/** What `worker-duplicate` says for each guard (an import row's error says the same). */
export const DUPLICATE_DETAIL = {
  registration: 'Another worker has this registration number',
  'external-ref': 'Another worker has this external_ref',
} as const;

/** A guard already held by another worker: `worker-duplicate`, naming that worker. */
const duplicateOf = (guard: keyof typeof DUPLICATE_DETAIL) => (old: Record<string, unknown> | undefined) =>
  new DomainError('worker-duplicate', DUPLICATE_DETAIL[guard], old?.worker_id !== undefined ? { worker_id: old.worker_id } : {});

const guardItem = (k: { pk: string; sk: string }, clientId: string, workerId: number) => ({
  ...k,
  entity: 'worker-guard',
  client_id: clientId,
  worker_id: workerId,
});

/** The guard writes that move a worker from `before` (absent: new) to `after` (absent: archived). */
export function guardParts(deps: Deps, clientId: string, workerId: number, before: WorkerInput | undefined, after: WorkerInput | undefined): Part[] {
  const parts: Part[] = [];
  const regChanged = !before || !after || !sameRegistration(before.registration, after.registration);
  if (regChanged && before)
    parts.push(part('old-registration', deleteItem(deps, registrationGuardKey(clientId, before.registration.register, before.registration.number))));
  if (regChanged && after) {
    parts.push(
      part(
        'registration',
        putItem(deps, guardItem(registrationGuardKey(clientId, after.registration.register, after.registration.number), clientId, workerId), itemAbsent),
      ),
    );
  }
  const refChanged = before?.external_ref !== after?.external_ref;
  if (refChanged && before?.external_ref) parts.push(part('old-external-ref', deleteItem(deps, externalRefGuardKey(clientId, before.external_ref))));
  if (refChanged && after?.external_ref)
    parts.push(part('external-ref', putItem(deps, guardItem(externalRefGuardKey(clientId, after.external_ref), clientId, workerId), itemAbsent)));
  return parts;
}

export const GUARD_FAILURES = { registration: duplicateOf('registration'), 'external-ref': duplicateOf('external-ref') };
