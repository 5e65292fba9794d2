import type { FamilyId } from '../platform/families.js';

/**
 * The event catalogue: every event kind each family delivers, with what it
 * means. The webhook schemas, the OpenAPI documents and the README's list are
 * generated from it, and `eventPut` only takes a kind of the event's own
 * family, so a wrong pairing fails to compile.
 */
export const EVENT_CATALOGUE = {
  'clinical-interview': {
    'booking.created': 'A booking was made (for `candidate_pays`, before the candidate pays).',
    'booking.confirmed': 'A candidate paid for a `candidate_pays` booking.',
    'booking.rescheduled': 'An operator moved a booking to another slot.',
    'booking.cancelled': 'An operator cancelled a booking, or a `candidate_pays` booking was still unpaid at its payment deadline.',
    'booking.interview_completed': 'The interview took place and was marked complete.',
    'booking.interview_report_available': 'The interview report can be downloaded.',
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  'portal-v2': {
    'reference_request.created': 'A reference request was created.',
    'reference.completed': 'A referee completed the reference form.',
    'reference.declined': 'A referee declined to give a reference.',
    'reference_request.completed': 'Every required reference of a request is complete.',
    'reference_request.cancelled': 'A reference request was cancelled.',
    'reference_request.expired': 'A reference request expired before it was complete.',
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
} as const satisfies Record<FamilyId, Record<string, string>>;

export type EventKindOf<F extends FamilyId> = keyof (typeof EVENT_CATALOGUE)[F] & string;
export type EventKind = { [F in FamilyId]: EventKindOf<F> }[FamilyId];

/** An event kind tied to its family: the pair `eventPut` takes. */
export type FamilyEvent = { [F in FamilyId]: { family: F; type: EventKindOf<F> } }[FamilyId];

export const eventKindsOf = <F extends FamilyId>(family: F): EventKindOf<F>[] => Object.keys(EVENT_CATALOGUE[family]) as EventKindOf<F>[];

export const isEventKindOf = <F extends FamilyId>(family: F, kind: string): kind is EventKindOf<F> => Object.hasOwn(EVENT_CATALOGUE[family], kind);
