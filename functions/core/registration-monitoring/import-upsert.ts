import { canonicalJson } from '../platform/canonical-json.js';
import { getMany } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { transact, TransactionFailed, type Part } from '../platform/transact.js';
import type { ImportRow, RowError } from './import-rows.js';
import { clientForm, createWorker, getWorkerItem, newWorker, replaceWorker, workerKeys, type WorkerInput, type WorkerItem } from './workers.js';
import { DUPLICATE_DETAIL } from './worker-guards.js';

/**
 * One import row against the client's workers:
 * matched by `external_ref`, else by `(register, number)`; created, replaced
 * (upsert) or left unchanged, each row on its own. A dry run says what would
 * happen and writes nothing.
 */

export type Mode = 'upsert' | 'create_only';
export type RowOutcome = { result: 'created' | 'updated' | 'unchanged' } | { result: 'failed'; error: RowError };

const duplicate = (row: ImportRow, guard: keyof typeof DUPLICATE_DETAIL): RowOutcome => {
  const byRef = guard === 'external-ref';
  return {
    result: 'failed',
    error: {
      row: row.line,
      column: byRef ? 'external_ref' : 'registration_number',
      value: byRef ? row.input.external_ref : row.input.registration.number,
      code: 'worker-duplicate',
      detail: DUPLICATE_DETAIL[guard],
      pointer: byRef ? '/external_ref' : '/registration/number',
    },
  };
};

const guardKeys = (clientId: string, input: WorkerInput) => ({
  ref: input.external_ref ? workerKeys.externalRefGuard(clientId, input.external_ref) : undefined,
  reg: workerKeys.registrationGuard(clientId, input.registration.register, input.registration.number),
});

const sameAs = (input: WorkerInput, current: WorkerItem) =>
  canonicalJson({ ...clientForm(current), registration: current.registration }) === canonicalJson(input);

/** A row's outcome with the worker it matched; `written`: the row's own worker, created by an earlier run of its chunk. */
export type Decided = RowOutcome & { match?: number; written?: true };

/**
 * What a row comes to against the workers that hold its reference and number
 * (the one it matches, `current`). `own` is the id reserved for the row's new
 * worker: a guard that already names it was written by this row.
 */
function decide(
  row: ImportRow,
  mode: Mode,
  byRef: number | undefined,
  byRegistration: number | undefined,
  current: WorkerItem | undefined,
  own?: number,
): Decided {
  if (own !== undefined && (byRef === own || byRegistration === own)) return { result: 'created', match: own, written: true };
  const match = row.input.external_ref ? byRef : byRegistration;
  // The row's number belongs to a worker other than the one it matches.
  if (byRegistration !== undefined && byRegistration !== match) return duplicate(row, 'registration');
  if (match === undefined) return { result: 'created' };
  if (mode === 'create_only') return duplicate(row, row.input.external_ref ? 'external-ref' : 'registration');
  if (current && !current.archived_at && sameAs(row.input, current)) return { result: 'unchanged', match };
  return { result: 'updated', match };
}

/** A dry run of many rows: the guards and matched workers read in batches, nothing written. `own`: the rows' reserved worker ids. */
export async function previewRows(deps: Deps, clientId: string, rows: ImportRow[], mode: Mode, own: (number | undefined)[] = []): Promise<Decided[]> {
  const keys = rows.map((r) => guardKeys(clientId, r.input));
  const guards = new Map(
    (
      await getMany(
        deps,
        keys.flatMap((k) => (k.ref ? [k.ref, k.reg] : [k.reg])),
      )
    ).map((g) => [String(g.sk), Number(g.worker_id)]),
  );
  const ids = [...new Set(guards.values())];
  const workers = new Map(
    (
      await getMany(
        deps,
        ids.map((id) => workerKeys.worker(clientId, id)),
      )
    ).map((w) => [Number(w.id), w as unknown as WorkerItem]),
  );
  return rows.map((row, i) => {
    const byRef = keys[i]!.ref ? guards.get(keys[i]!.ref.sk) : undefined;
    const byRegistration = guards.get(keys[i]!.reg.sk);
    const match = row.input.external_ref ? byRef : byRegistration;
    return decide(row, mode, byRef, byRegistration, match === undefined ? undefined : workers.get(match), own[i]);
  });
}

/**
 * One row committed: created, replaced (upsert) or left as it is, its
 * outcome recorded by `recorded` (put only if absent) in the same write. A
 * new worker takes `own`, the id reserved for the row, when there is one: put
 * only if absent, it is the row's record itself.
 * 'raced': another delivery of the row recorded it first; read that.
 */
export async function upsertRow(
  deps: Deps,
  clientId: string,
  row: ImportRow,
  mode: Mode,
  recorded: (outcome: RowOutcome) => Part,
  own?: number,
): Promise<RowOutcome | 'raced'> {
  const k = guardKeys(clientId, row.input);
  const guards = await getMany(deps, k.ref ? [k.ref, k.reg] : [k.reg]);
  const held = (key: { sk: string } | undefined) => (key ? (guards.find((g) => g.sk === key.sk)?.worker_id as number | undefined) : undefined);
  const byRef = held(k.ref);
  const byRegistration = held(k.reg);
  const match = row.input.external_ref ? byRef : byRegistration;
  const decided = decide(row, mode, byRef, byRegistration, match === undefined ? undefined : await getWorkerItem(deps, clientId, match), own);
  const outcome: RowOutcome = decided.result === 'failed' ? decided : { result: decided.result };
  if (decided.written) return outcome;
  try {
    if (outcome.result === 'created' && own !== undefined) await transact(deps, newWorker(deps, clientId, own, row.input).parts);
    else if (outcome.result === 'created') await createWorker(deps, clientId, row.input, () => [recorded(outcome)]);
    else if (outcome.result === 'updated') await replaceWorker(deps, clientId, decided.match!, () => row.input, [recorded(outcome)]);
    else await transact(deps, [recorded(outcome)]);
    return outcome;
  } catch (err) {
    if (err instanceof TransactionFailed || (err instanceof DomainError && (err.code === 'worker-duplicate' || err.code === 'worker-archived'))) return 'raced';
    throw err;
  }
}
