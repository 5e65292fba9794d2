import type { Money } from '../commerce/money.js';
import type { FeeKind } from '../commerce/charges.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';
import { deleteItem, itemAbsent, part, putItem, type Part } from '../platform/transact.js';
import type { Deps } from '../platform/deps.js';
import { VLS_FAMILY, type EquipmentFees } from './catalogue.js';
import type { EquipmentStatus } from './equipment-vocabulary.js';

/**
 * The manikin lent with an equipment course (decision 8): its status, shipments and fees, and its entry in
 * the sweep's list of deadlines. Pure rules and keys; the operations are in
 * equipment.ts.
 */

export { EQUIPMENT_STATUSES, type EquipmentStatus } from './equipment-vocabulary.js';

export interface Equipment {
  status: EquipmentStatus;
  dispatch: { carrier: string; tracking_number: string; tracking_url: string | null; dispatched_at: string; delivered_at: string | null } | null;
  return: { due_at: string; carrier: string | null; tracking_number: string | null; shipped_at: string | null; returned_at: string | null } | null;
  fees: { kind: 'late_return' | 'lost'; amount: Money; ledger_entry_id: string; charged_at: string; via: 'invoice' | 'money'; refunded_at?: string }[];
  /** The fees the booking was sold with (the course's at booking time); null without kit. */
  fee_schedule: EquipmentFees | null;
  /** The instant the sweep next looks at the kit (its entry's key); absent while nothing is due. */
  deadline?: string;
}

const DAY = 86_400_000;
/** Return due 7 days after the session (or after a cancellation made once it was posted). */
export const RETURN_DAYS = 7;
/** Lost when still out 28 days after the return was due. */
export const LOST_DAYS = 28;

export const daysAfter = (instant: string, days: number): string => new Date(Date.parse(instant) + days * DAY).toISOString();

/** Out with the candidate, so a deadline runs: posted, arrived, or late. */
export const kitOut = (status: EquipmentStatus): boolean => status === 'dispatched' || status === 'delivered' || status === 'overdue';

export const FEE_LEDGER_KIND: Record<'late_return' | 'lost', FeeKind> = { late_return: 'equipment_late', lost: 'equipment_lost' };

const DUE = TABLE_KEYS.equipmentDue;
export const equipmentDueKeys = {
  partition: key(DUE.pk, VLS_FAMILY),
  entry: (deadline: string, clientId: string, bookingId: number) => ({
    pk: key(DUE.pk, VLS_FAMILY),
    sk: key(DUE.sk.booking, deadline, clientId, padId(bookingId)),
  }),
};

/** Moves the booking's sweep entry from its deadline as read to `next` (either may be none), in the change's transaction. */
export function deadlineParts(deps: Deps, b: { client_id: string; id: number; equipment: Pick<Equipment, 'deadline'> }, next: string | undefined): Part[] {
  const old = b.equipment.deadline;
  if (old === next) return [];
  return [
    ...(old ? [part('old deadline', deleteItem(deps, equipmentDueKeys.entry(old, b.client_id, b.id)))] : []),
    ...(next
      ? [
          part(
            'deadline',
            putItem(
              deps,
              { ...equipmentDueKeys.entry(next, b.client_id, b.id), entity: 'equipment-due', client_id: b.client_id, booking_id: b.id, deadline: next },
              itemAbsent,
            ),
          ),
        ]
      : []),
  ];
}

export function toEquipmentView(e: Equipment, timeZone: string) {
  const at = (instant: string | null) => (instant ? formatWithOffset(instant, timeZone) : null);
  return {
    status: e.status,
    dispatch: e.dispatch && { ...e.dispatch, dispatched_at: at(e.dispatch.dispatched_at)!, delivered_at: at(e.dispatch.delivered_at) },
    return: e.return && { ...e.return, due_at: at(e.return.due_at)!, shipped_at: at(e.return.shipped_at), returned_at: at(e.return.returned_at) },
    fees: e.fees.map((f) => ({ kind: f.kind, amount: f.amount, ledger_entry_id: f.ledger_entry_id, charged_at: at(f.charged_at)!, refunded: !!f.refunded_at })),
  };
}
