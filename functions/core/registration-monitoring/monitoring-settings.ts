import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { professionOf } from './registers.js';
import { getWorker, replaceWorker, type MonitoringSettings } from './workers.js';

/** A worker's monitoring settings: read, replaced, and replaced for many workers at once. */

/** GET /workers/{id}/monitoring: the settings, with when the worker was last and is next checked. */
export const getMonitoring = async (deps: Deps, clientId: string, id: number) => (await getWorker(deps, clientId, id)).monitoring;

/** PUT /workers/{id}/monitoring: the settings replaced; the rest of the worker as it is. */
export const setMonitoring = async (deps: Deps, clientId: string, id: number, monitoring: MonitoringSettings) =>
  (
    await replaceWorker(deps, clientId, id, (current) => ({
      ...current,
      registration: { ...current.registration, profession: professionOf(current.registration.register, current.registration.number) },
      monitoring,
    }))
  ).monitoring;

export type BulkResult = 'updated' | 'archived' | 'not_found';

/** POST /monitoring/bulk: each distinct worker on its own, ten at a time. */
export async function setMonitoringMany(
  deps: Deps,
  clientId: string,
  ids: number[],
  monitoring: MonitoringSettings,
): Promise<{ id: number; result: BulkResult }[]> {
  const distinct = [...new Set(ids)];
  const results: { id: number; result: BulkResult }[] = [];
  for (let i = 0; i < distinct.length; i += 10) {
    results.push(
      ...(await Promise.all(
        distinct.slice(i, i + 10).map(async (id) => {
          try {
            await setMonitoring(deps, clientId, id, monitoring);
            return { id, result: 'updated' as const };
          } catch (err) {
            if (err instanceof DomainError && err.code === 'not-found') return { id, result: 'not_found' as const };
            if (err instanceof DomainError && err.code === 'worker-archived') return { id, result: 'archived' as const };
            throw err;
          }
        }),
      )),
    );
  }
  return results;
}
