import { getClient } from '../access/clients.js';
import { changeBooking } from '../bookings/change.js';
import { agencyName } from '../bookings/calendar-notices.js';
import { findBookingIn, getBookingItem } from '../bookings/records.js';
import { planFee, planFeeRefund } from '../commerce/charges.js';
import { emailPut } from '../events/outbox.js';
import { equipmentDispatched } from '../messaging/email-templates.js';
import { queryAll, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { readableTime } from '../platform/time.js';
import { part, type Part } from '../platform/transact.js';
import { VLS_CHANGING } from './booking-changes.js';
import type { VlsBooking } from './bookings.js';
import {
  daysAfter,
  deadlineParts,
  equipmentDueKeys,
  FEE_LEDGER_KIND,
  kitOut,
  LOST_DAYS,
  RETURN_DAYS,
  type Equipment,
  type EquipmentStatus,
} from './equipment-state.js';

/**
 * The manikin's journey: the
 * operator records dispatch, delivery, the return shipment and receipt; the
 * hourly sweep marks kit not posted back by its due date `overdue` with the
 * late fee and `booking.equipment_return_overdue` in one transaction, and
 * kit still out 28 days later `lost` with the lost fee. Each change is
 * conditional on the booking as read, so two sweeps change it once.
 */

const findBooking = (deps: Deps, id: number) => findBookingIn<VlsBooking>(deps, VLS_CHANGING.family, id);

function refuse(b: VlsBooking, allowed: EquipmentStatus[], what: string): void {
  if (!allowed.includes(b.equipment.status)) throw new DomainError('invalid-state', `Booking ${b.id}'s kit is ${b.equipment.status}: it cannot be ${what}`);
}

/** Changes the booking's kit (and its sweep entry), with the parts given, retried when another writer came first. */
async function changeKit(
  deps: Deps,
  id: number,
  change: (b: VlsBooking, now: Date) => Promise<{ equipment: Equipment; parts?: Part[]; event?: 'booking.equipment_return_overdue' } | undefined>,
): Promise<VlsBooking | undefined> {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    const next = await change(booking, deps.clock());
    if (!next) return undefined;
    const parts = [...deadlineParts(deps, booking, next.equipment.deadline), ...(next.parts ?? [])];
    return changeBooking(deps, VLS_CHANGING, booking, { equipment: next.equipment }, next.event, parts);
  });
}

/** The kit is posted: carrier and tracking recorded, return due a week after the session, the candidate e-mailed the tracking. */
export async function recordDispatch(deps: Deps, id: number, shipment: { carrier: string; tracking_number: string; tracking_url?: string | null }) {
  return (await changeKit(deps, id, async (b, now) => {
    refuse(b, ['awaiting_dispatch'], 'dispatched');
    if (b.booking_status !== 'booked')
      throw new DomainError('invalid-state', `Booking ${b.id} is ${b.booking_status}: kit is posted only for confirmed bookings`);
    const due = daysAfter(b.end_at, RETURN_DAYS);
    const tz = deps.config.serviceTimeZone;
    const notice = equipmentDispatched({
      candidateName: `${b.candidate.first_name} ${b.candidate.last_name}`,
      item: 'feedback manikin',
      course: b.course.name,
      when: readableTime(b.start_at, tz),
      carrier: shipment.carrier,
      trackingNumber: shipment.tracking_number,
      trackingUrl: shipment.tracking_url ?? null,
      returnBy: readableTime(due, tz),
      agency: await agencyName(deps, b.client_id),
    });
    return {
      equipment: {
        ...b.equipment,
        status: 'dispatched',
        dispatch: {
          carrier: shipment.carrier,
          tracking_number: shipment.tracking_number,
          tracking_url: shipment.tracking_url ?? null,
          dispatched_at: now.toISOString(),
          delivered_at: null,
        },
        return: { due_at: due, carrier: null, tracking_number: null, shipped_at: null, returned_at: null },
        deadline: due,
      },
      parts: [part('dispatch notice', emailPut(deps, { to: b.candidate.email, ...notice }))],
    };
  }))!;
}

export async function recordDelivery(deps: Deps, id: number) {
  return (await changeKit(deps, id, async (b, now) => {
    refuse(b, ['dispatched'], 'marked delivered');
    return { equipment: { ...b.equipment, status: 'delivered', dispatch: { ...b.equipment.dispatch!, delivered_at: now.toISOString() } } };
  }))!;
}

/** The candidate posted it back: on time if by `due_at`; the sweep then leaves it alone. */
export async function recordReturnShipped(deps: Deps, id: number, shipment: { carrier: string; tracking_number: string }) {
  return (await changeKit(deps, id, async (b, now) => {
    refuse(b, ['dispatched', 'delivered', 'overdue', 'lost'], 'shipped back');
    return {
      equipment: {
        ...b.equipment,
        status: 'return_in_transit',
        return: { ...b.equipment.return!, carrier: shipment.carrier, tracking_number: shipment.tracking_number, shipped_at: now.toISOString() },
        deadline: undefined,
      },
    };
  }))!;
}

/** Received: tracking closed; a lost fee already charged is refunded (the late fee is kept). */
export async function recordReturned(deps: Deps, id: number) {
  return (await changeKit(deps, id, async (b, now) => {
    refuse(b, ['dispatched', 'delivered', 'return_in_transit', 'overdue', 'lost'], 'marked returned');
    const lost = b.equipment.fees.find((f) => f.kind === 'lost' && !f.refunded_at);
    const client = lost && (await getClient(deps, b.client_id));
    const refund =
      lost && client
        ? await planFeeRefund(deps, {
            client,
            family: VLS_CHANGING.family,
            bookingId: b.id,
            product: { kind: 'course', ...b.course },
            amount: lost.amount,
            fee: 'equipment_lost',
            via: lost.via,
            note: 'lost kit returned',
          })
        : [];
    const fees = b.equipment.fees.map((f) => (f === lost ? { ...f, refunded_at: now.toISOString() } : f));
    return {
      equipment: { ...b.equipment, status: 'returned', return: { ...b.equipment.return!, returned_at: now.toISOString() }, fees, deadline: undefined },
      parts: refund,
    };
  }))!;
}

/** The sweep's step for one booking whose deadline came: overdue (late fee and event), or lost (lost fee), or nothing. */
async function sweepStep(deps: Deps, b: VlsBooking, now: Date) {
  const e = b.equipment;
  if (!e.deadline || e.deadline > now.toISOString() || !kitOut(e.status) || !e.return || !e.fee_schedule) return undefined;
  const stage: 'lost' | 'late_return' = e.status === 'overdue' ? 'lost' : 'late_return';
  const client = await getClient(deps, b.client_id);
  if (!client) return undefined;
  const amount = e.fee_schedule[stage];
  const fee = await planFee(deps, {
    client,
    family: VLS_CHANGING.family,
    bookingId: b.id,
    product: { kind: 'course', ...b.course },
    amount,
    fee: FEE_LEDGER_KIND[stage],
  });
  const charged = { kind: stage, amount, ledger_entry_id: fee.ledgerEntryId, charged_at: now.toISOString(), via: fee.via };
  const equipment: Equipment =
    stage === 'late_return'
      ? { ...e, status: 'overdue', fees: [...e.fees, charged], deadline: daysAfter(e.return.due_at, LOST_DAYS) }
      : { ...e, status: 'lost', fees: [...e.fees, charged], deadline: undefined };
  // Lost has no event: the specification names none.
  return { equipment, parts: fee.parts, event: stage === 'late_return' ? ('booking.equipment_return_overdue' as const) : undefined };
}

/**
 * The hourly equipment sweep: every kit whose deadline has come moves on
 * once (overdue, then lost), fee and event in its own transaction. A return
 * recorded before the sweep runs took the kit off the list: no fee.
 */
export async function sweepEquipment(deps: Deps): Promise<{ overdue: number; lost: number }> {
  const now = deps.clock().toISOString();
  const due = await queryAll(deps, {
    // Entries are `<deadline>#<client>#<id>`; every one before `<now>$` is due ('$' follows '#').
    KeyConditionExpression: 'pk = :pk AND sk < :after',
    ExpressionAttributeValues: { ':pk': equipmentDueKeys.partition, ':after': `${now}$` },
    ConsistentRead: true,
  });
  const counts = { overdue: 0, lost: 0 };
  for (const entry of due) {
    // A kit the sweep never saw for 28 days goes overdue, then lost, in two steps.
    for (let step = 0; step < 2; step++) {
      const booking = await getBookingItem<VlsBooking>(deps, String(entry.client_id), Number(entry.booking_id), VLS_CHANGING.family);
      if (!booking) break;
      const changed = await changeKit(deps, booking.id, (b) => sweepStep(deps, b, deps.clock()));
      if (!changed) break;
      counts[changed.equipment.status === 'lost' ? 'lost' : 'overdue']++;
    }
  }
  return counts;
}
