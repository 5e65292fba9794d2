import type { FamilyId } from '../platform/families.js';
import type { EventKindOf } from './kinds.js';

/**
 * The event catalogue: what each event kind of ./kinds.ts means. The OpenAPI
 * documents and the README's list are generated from it; its type makes it
 * name exactly the kinds each family delivers, so the two cannot drift.
 */
export const EVENT_CATALOGUE: { readonly [F in FamilyId]: Readonly<Record<EventKindOf<F>, string>> } = {
  'clinical-interview': {
    'booking.created': 'A booking was made (for `candidate_pays`, before the candidate pays).',
    'booking.confirmed': 'A candidate paid for a `candidate_pays` booking.',
    'booking.rescheduled': 'An operator moved a booking to another slot.',
    'booking.cancelled': 'An operator cancelled a booking, or a `candidate_pays` booking was still unpaid at its payment deadline.',
    'booking.interview_completed': 'The interview took place and was marked complete.',
    'booking.interview_report_available': 'The interview report can be downloaded.',
    'data_subject.erased':
      "A person's data was erased at the agency's request (`POST /data-subjects/erasures`): `data` has the request id, `email_sha256` (SHA-256 of the address in lower case, never the address), the counts and what is kept.",
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  'portal-v2': {
    'reference_request.created': 'A reference request was created.',
    'reference.completed': 'A referee completed the reference form.',
    'reference.declined': 'A referee declined to give a reference.',
    'reference_request.completed': 'Every required reference of a request is complete.',
    'reference_request.cancelled': 'A reference request was cancelled.',
    'reference_request.expired': 'A reference request expired before it was complete.',
    // Request groups.
    'training_request.created': 'A training request was created.',
    'training_request.submitted': 'Every outstanding item of a training request is submitted: it awaits review.',
    'training_request.completed': 'Every item of a training request is final; `outcome` says whether it is satisfied.',
    'training_request.cancelled': 'A training request was cancelled.',
    'training_request.expired': 'A training request expired before it was complete.',
    'occupational_health_request.created': 'An occupational health request was created.',
    'occupational_health_request.submitted': 'Every outstanding item of an occupational health request is submitted: it awaits review.',
    'occupational_health_request.completed': 'Every item of an occupational health request is final; `outcome` says whether it is satisfied.',
    'occupational_health_request.cancelled': 'An occupational health request was cancelled.',
    'occupational_health_request.expired': 'An occupational health request expired before it was complete.',
    'practical_training_request.created': 'A practical training request was created, with its booking invite (e-mailed by the practical training family).',
    'practical_training_request.completed': 'The booking of a practical training request led to its certificate: the item carries it.',
    'practical_training_request.cancelled': 'A practical training request was cancelled; its unused invite is closed, a booking made stays.',
    'practical_training_request.expired': 'A practical training request expired before a booking was made with its invite.',
    'life_support_request.created': 'A life support request was created, with its booking invite (e-mailed by the virtual life-support family).',
    'life_support_request.completed': 'The booking of a life support request led to its certificate: the item carries it.',
    'life_support_request.cancelled': 'A life support request was cancelled; its unused invite is closed, a booking made stays.',
    'life_support_request.expired': 'A life support request expired before a booking was made with its invite.',
    'appraisal_request.created': 'An appraisal request was created.',
    'appraisal_request.submitted': 'Every outstanding item of an appraisal request is submitted: it awaits review.',
    'appraisal_request.completed': 'Every item of an appraisal request is final; `outcome` says whether it is satisfied.',
    'appraisal_request.cancelled': 'An appraisal request was cancelled.',
    'appraisal_request.expired': 'An appraisal request expired before it was complete.',
    'certificate_request.created': 'A certificate request was created.',
    'certificate_request.submitted': 'Every outstanding item of a certificate request is submitted: it awaits review.',
    'certificate_request.completed': 'Every item of a certificate request is final; `outcome` says whether it is satisfied.',
    'certificate_request.cancelled': 'A certificate request was cancelled.',
    'certificate_request.expired': 'A certificate request expired before it was complete.',
    'training_verification_request.created': 'A training verification request was created.',
    'training_verification_request.completed': 'Every item of a training verification request is final; `outcome` says whether it is satisfied.',
    'training_verification_request.cancelled': 'A training verification request was cancelled.',
    'training_verification_request.expired': 'A training verification request expired before it was complete.',
    'request_item.submitted':
      'An item was submitted by its actor (fields and file). `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.accepted': 'The agency accepted a submitted item. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.rejected':
      'The agency rejected a submitted item; its actor was told why and may submit again. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.confirmed':
      'An issuer or appraiser confirmed an item. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.denied': 'An issuer or appraiser denied an item. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.booked':
      'A booking was made through the invite of an item. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.certified':
      'The booking of an item led to its certificate. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'request_item.failed':
      'The booking of an item was cancelled, missed or not passed. `data` is the item, with `kind` and `request_id` (no health data for occupational health).',
    'data_subject.erased':
      "A candidate's data was erased at the agency's request (`POST /data-subjects/erasures`): `data` has the request id, `email_sha256` (SHA-256 of the address in lower case, never the address), the counts and what is kept.",
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  'practical-training': {
    'booking.created': 'A seat was booked (for `candidate_pays`, before the candidate pays).',
    'booking.confirmed': 'A candidate paid for a `candidate_pays` booking.',
    'booking.rescheduled': 'An operator moved a booking to another event of its course.',
    'booking.cancelled': 'A booking was cancelled: by the agency, an operator, an event cancellation, or an unpaid payment deadline.',
    'booking.attendance_marked': 'Attendance was marked (`attended` or `no_show`).',
    'booking.no_show': 'The candidate did not attend (also sent as `booking.attendance_marked`).',
    'booking.certificate_available': 'The completion certificate can be downloaded (issued, and paid for).',
    'booking_invite.sent': 'A booking invite e-mail was handed to the mail service.',
    'booking_invite.opened': 'A booking invite link was opened for the first time (a mail scanner may open it too).',
    'booking_invite.used': 'A candidate booked through an invite.',
    'credit_balance.low': 'A booking took a course credits wallet to its low threshold.',
    'credit_balance.depleted': 'A booking took a course credits wallet to zero.',
    'money_balance.low': 'A booking took the money balance to its low threshold.',
    'money_balance.depleted': 'A booking took the money balance to zero.',
    'training_event.seats_low': 'A booking left a training event with few seats (sent to every subscribed endpoint of the family).',
    'seat_hold.expired': 'A seat hold expired unused.',
    'data_subject.erased':
      "A person's data was erased at the agency's request (`POST /data-subjects/erasures`): `data` has the request id, `email_sha256` (SHA-256 of the address in lower case, never the address), the counts and what is kept.",
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  'virtual-life-support': {
    'booking.created': 'A seat of a session was booked (for `candidate_pays`, before the candidate pays).',
    'booking.confirmed': 'A candidate paid for a `candidate_pays` booking.',
    'booking.rescheduled': 'An operator moved a booking to another session of its course.',
    'booking.cancelled': 'A booking was cancelled: by an operator, a session cancellation, or an unpaid payment deadline.',
    'booking.attendance_marked': 'Attendance was marked (`attended` or `no_show`).',
    'booking.equipment_return_overdue': 'The manikin was not posted back by its due date; the late-return fee was charged with it (once per booking).',
    'booking.certificate_available': 'The certificate can be downloaded (issued, and paid for).',
    'data_subject.erased':
      "A person's data was erased at the agency's request (`POST /data-subjects/erasures`): `data` has the request id, `email_sha256` (SHA-256 of the address in lower case, never the address), the counts and what is kept.",
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  // The facades deliver no events of their own: their parents' webhooks carry the same bookings.
  services: {},
  'practical-training-legacy': {},
  'registration-monitoring': {
    'worker.created': 'A worker was added (by `POST /workers` or an import).',
    'worker.updated': 'A worker was replaced or patched (a changed registration resets its outcome to `unverified`).',
    'worker.archived': 'A worker was archived: monitoring stopped and its open alerts resolved.',
    'verification.completed': 'A register check completed, with its outcome, reasons and changes (`simulated` says which register answered).',
    'verification.errored': 'A register check could not complete (timeout, register unavailable or rate limited); a retry follows.',
    'verification_job.completed': 'Every check of a batch verification job has run.',
    'alert.created': 'A check found a new condition: the alert, with its type and severity.',
    'alert.escalated': 'An open alert rose in severity (an expiry drawing nearer, a stricter annotation).',
    'alert.acknowledged': 'A person acknowledged an alert.',
    'alert.resolved': 'The register cleared the condition, or the worker was archived.',
    'import.completed': 'A CSV import (or dry run) finished, with its counts.',
    'import.failed': 'A CSV import could not be processed after it was accepted.',
    'data_subject.erased':
      "A worker's data was erased at the agency's request (`POST /data-subjects/erasures`): `data` has the request id, `email_sha256` (SHA-256 of the address in lower case, never the address), the counts and what is kept.",
    'webhook.test': 'A test event sent by `POST /webhooks/{id}/test`.',
  },
  // Portal v1's webhooks are portal v2 endpoints (decision 12): they deliver v2's events.
  'portal-v1': {},
};
