import { holdRecordKeys } from '../inventory/hold-records.js';
import { HOLD_SECONDS } from '../inventory/hold-time.js';
import { holdUnit, releaseUnitHold, type Hold, type HoldPolicy } from '../inventory/holds.js';
import type { Tally } from '../inventory/units.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { CLINICAL_FAMILY, loadCatalog } from './catalog.js';
import { candidateSlots, slotUnit, toHoldView, type HoldRecord, type HoldView } from './slots.js';

/** The clinical family's holds on the inventory engine: a client holds one interviewer's slot at a time. */

export const clinicalHoldKeys = {
  ...holdRecordKeys,
  /** The clinical family's unit: an interviewer's slot. */
  slotLock: slotUnit,
};

/** HOLD_MINUTES on an interviewer's slot, one hold per client. */
export const clinicalHolds = (family: FamilyId): HoldPolicy => ({ family, seconds: HOLD_SECONDS, onePerHolder: true });
export const clinicalUnit = (family: FamilyId) => (h: Hold) => slotUnit(family, String(h.date), String(h.time), Number(h.interviewer_id));

/** POST /timeslots/hold: any free interviewer's slot at that date and time. */
export async function createHold(
  deps: Deps,
  clientId: string,
  input: { interviewTypeId: number; date: string; time: string },
  family: FamilyId = CLINICAL_FAMILY,
  tally?: Tally,
): Promise<HoldView> {
  const now = deps.clock();
  const tz = deps.config.serviceTimeZone;
  const { type, slots } = candidateSlots(await loadCatalog(deps), input.interviewTypeId, input.date, input.time, tz, now);
  const { hold, at } = await holdUnit(
    deps,
    clinicalHolds(family),
    { type: 'client', clientId },
    { units: slots, keyOf: (s) => slotUnit(family, s.date, s.time, s.interviewerId) },
    (s) => ({
      interview_type_id: type.id,
      interview_type_name: type.name,
      interviewer_id: s.interviewerId,
      date: s.date,
      time: s.time,
      start_at: s.startAt.toISOString(),
      end_at: s.endAt.toISOString(),
    }),
    {
      conflict: (existing) =>
        new DomainError('hold-conflict', 'This client already has an active hold; book or release it first', {
          hold: toHoldView(existing as unknown as HoldRecord, now, tz),
        }),
      unavailable: () => new DomainError('slot-unavailable', `The ${type.name} slot on ${input.date} at ${input.time} is no longer available`),
    },
    tally,
  );
  return toHoldView(hold, at, tz);
}

/** DELETE /timeslots/hold/{hash}; `read`: the hold, read already. */
export const releaseHold = (deps: Deps, clientId: string, hash: string, family: FamilyId = CLINICAL_FAMILY, read?: { hold: Hold | undefined }): Promise<void> =>
  releaseUnitHold(deps, clinicalHolds(family), { type: 'client', clientId }, hash, clinicalUnit(family), read);
