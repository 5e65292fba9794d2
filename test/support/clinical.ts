import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  createInterviewType,
  createInterviewer,
  loadCatalog,
  setAvailability,
  slotsOn,
  type InterviewType,
} from '../../functions/core/clinical-interview/catalog.js';
import { createBooking } from '../../functions/core/clinical-interview/booking-api.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import type { FamilyId } from '../../functions/core/platform/families.js';
import { createHold, clinicalHoldKeys } from '../../functions/core/clinical-interview/holds.js';
import type { HoldRecord } from '../../functions/core/clinical-interview/slots.js';
import { randomToken } from '../../functions/core/platform/secrets.js';
import { zonedInstant } from '../../functions/core/platform/time.js';
import { links } from './kit.js';

/** Fixtures for the clinical interview tests; what every family's tests share is in kit.ts. */

export const CI: FamilyId = 'clinical-interview';

/**
 * One 30-minute type; interviewer 1 works 09:00-12:00 every day, interviewer 2
 * 09:00-10:00 every day, so 09:00 and 09:30 have two interviewers and later
 * slots one.
 */
export async function testCatalog(deps: Deps): Promise<{ type: InterviewType }> {
  const type = await createInterviewType(deps, { name: 'RN clinical interview', durationMinutes: 30, priceMinor: 4000 });
  const a = await createInterviewer(deps, 'Dr Interviewer One');
  const b = await createInterviewer(deps, 'Nurse Interviewer Two');
  const everyDay = [1, 2, 3, 4, 5, 6, 7];
  await setAvailability(
    deps,
    a.id,
    everyDay.map((weekday) => ({ interviewTypeId: type.id, weekday, start: '09:00', end: '12:00' })),
  );
  await setAvailability(
    deps,
    b.id,
    everyDay.map((weekday) => ({ interviewTypeId: type.id, weekday, start: '09:00', end: '10:00' })),
  );
  return { type };
}

/**
 * Test-only: writes an active hold for a client without the one-active-hold
 * rule, so that one client can race many bookings against one wallet.
 */
export async function forgeHold(deps: Deps, clientId: string, type: InterviewType, interviewerId: number, date: string, time: string): Promise<string> {
  const now = deps.clock();
  const startAt = zonedInstant(date, time, deps.config.serviceTimeZone)!;
  const hold: HoldRecord = {
    hold_hash: randomToken(32),
    client_id: clientId,
    family: CI,
    interview_type_id: type.id,
    interview_type_name: type.name,
    interviewer_id: interviewerId,
    date,
    time,
    start_at: startAt.toISOString(),
    end_at: new Date(startAt.getTime() + type.durationMinutes * 60_000).toISOString(),
    expires_at: new Date(now.getTime() + 1800_000).toISOString(),
    status: 'active',
  };
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...clinicalHoldKeys.hold(CI, hold.hold_hash), entity: 'hold', ...hold } }));
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...clinicalHoldKeys.slotLock(CI, date, time, interviewerId),
        entity: 'slot-lock',
        state: 'held',
        hold_hash: hold.hold_hash,
        client_id: clientId,
        expires_at: hold.expires_at,
      },
    }),
  );
  return hold.hold_hash;
}

export const candidate = {
  first_name: 'Ada',
  last_name: 'Nightingale',
  email: 'ada@example.org',
  phone: '+447700900123',
  job_role: 'Registered Nurse',
  nmc_number: '12A3456B',
};

/**
 * A booking whose interview started an hour ago: held and booked through the
 * booking engine by a clock set before that slot, as an agency did then.
 */
export async function startedBooking(deps: Deps, clientId: string, interviewTypeId: number, payOption: 'credits' | 'invoice' = 'credits', who = candidate) {
  const catalog = await loadCatalog(deps);
  const type = catalog.types.find((t) => t.id === interviewTypeId)!;
  const now = deps.clock().getTime();
  for (let daysAgo = 0; daysAgo < 8; daysAgo++) {
    const date = new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const slot = slotsOn(catalog, type, date, deps.config.serviceTimeZone)
      .filter((s) => s.startAt.getTime() < now - 3_600_000)
      .at(-1);
    if (!slot) continue;
    const then = { ...deps, clock: () => new Date(slot.startAt.getTime() - 600_000) };
    const hold = await createHold(then, clientId, { interviewTypeId, date: slot.date, time: slot.time });
    return createBooking(then, clientId, { ...who, hold_hash: hold.hold_hash, pay_option: payOption }, links);
  }
  throw new Error(`No slot of interview type ${interviewTypeId} in the last week`);
}
