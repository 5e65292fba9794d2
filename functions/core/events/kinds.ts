import type { FamilyId } from '../platform/families.js';

/**
 * Every event kind each family delivers: what the functions need at run
 * time (the webhook schemas, `eventPut`'s types, the fan-out). What each
 * kind means is in ./catalogue.ts, which the documents read and the
 * functions do not load; its type makes it name exactly these kinds.
 */
export const EVENT_KINDS = {
  'clinical-interview': [
    'booking.created',
    'booking.confirmed',
    'booking.rescheduled',
    'booking.cancelled',
    'booking.interview_completed',
    'booking.interview_report_available',
    'data_subject.erased',
    'webhook.test',
  ],
  'portal-v2': [
    'reference_request.created',
    'reference.completed',
    'reference.declined',
    'reference_request.completed',
    'reference_request.cancelled',
    'reference_request.expired',
    'training_request.created',
    'training_request.submitted',
    'training_request.completed',
    'training_request.cancelled',
    'training_request.expired',
    'occupational_health_request.created',
    'occupational_health_request.submitted',
    'occupational_health_request.completed',
    'occupational_health_request.cancelled',
    'occupational_health_request.expired',
    'practical_training_request.created',
    'practical_training_request.completed',
    'practical_training_request.cancelled',
    'practical_training_request.expired',
    'life_support_request.created',
    'life_support_request.completed',
    'life_support_request.cancelled',
    'life_support_request.expired',
    'appraisal_request.created',
    'appraisal_request.submitted',
    'appraisal_request.completed',
    'appraisal_request.cancelled',
    'appraisal_request.expired',
    'certificate_request.created',
    'certificate_request.submitted',
    'certificate_request.completed',
    'certificate_request.cancelled',
    'certificate_request.expired',
    'training_verification_request.created',
    'training_verification_request.completed',
    'training_verification_request.cancelled',
    'training_verification_request.expired',
    'request_item.submitted',
    'request_item.accepted',
    'request_item.rejected',
    'request_item.confirmed',
    'request_item.denied',
    'request_item.booked',
    'request_item.certified',
    'request_item.failed',
    'data_subject.erased',
    'webhook.test',
  ],
  'practical-training': [
    'booking.created',
    'booking.confirmed',
    'booking.rescheduled',
    'booking.cancelled',
    'booking.attendance_marked',
    'booking.no_show',
    'booking.certificate_available',
    'booking_invite.sent',
    'booking_invite.opened',
    'booking_invite.used',
    'credit_balance.low',
    'credit_balance.depleted',
    'money_balance.low',
    'money_balance.depleted',
    'training_event.seats_low',
    'seat_hold.expired',
    'data_subject.erased',
    'webhook.test',
  ],
  'virtual-life-support': [
    'booking.created',
    'booking.confirmed',
    'booking.rescheduled',
    'booking.cancelled',
    'booking.attendance_marked',
    'booking.equipment_return_overdue',
    'booking.certificate_available',
    'data_subject.erased',
    'webhook.test',
  ],
  services: [],
  'practical-training-legacy': [],
  'registration-monitoring': [
    'worker.created',
    'worker.updated',
    'worker.archived',
    'verification.completed',
    'verification.errored',
    'verification_job.completed',
    'alert.created',
    'alert.escalated',
    'alert.acknowledged',
    'alert.resolved',
    'import.completed',
    'import.failed',
    'data_subject.erased',
    'webhook.test',
  ],
  'portal-v1': [],
} as const satisfies Record<FamilyId, readonly string[]>;

export type EventKindOf<F extends FamilyId> = (typeof EVENT_KINDS)[F][number];
/** The families with webhooks: every one whose kinds include the test event. */
export type WebhookFamilyId = { [F in FamilyId]: 'webhook.test' extends EventKindOf<F> ? F : never }[FamilyId];
export type EventKind = { [F in FamilyId]: EventKindOf<F> }[FamilyId];

/** An event kind tied to its family: the pair `eventPut` takes. */
export type FamilyEvent = { [F in FamilyId]: { family: F; type: EventKindOf<F> } }[FamilyId];

export const eventKindsOf = <F extends FamilyId>(family: F): EventKindOf<F>[] => [...EVENT_KINDS[family]];

/**
 * Kinds about what every agency of the family shares (a training event's
 * seats), not about one client's data: the fan-out sends them to every
 * client's subscribed endpoints of the family, whoever caused them.
 */
const BROADCAST_KINDS: ReadonlySet<string> = new Set(['training_event.seats_low'] satisfies EventKindOf<'practical-training'>[]);

export const isBroadcast = (kind: string): boolean => BROADCAST_KINDS.has(kind);
