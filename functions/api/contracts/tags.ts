import { HOLD_MINUTES } from '../../core/inventory/hold-time.js';

/** The groups operations are listed under in the documents, in this order; each contract entry names one. */
export const TAGS = {
  Authentication: 'Exchange client credentials for short-lived bearer tokens, refresh and revoke them.',
  'Interview types and timeslots': `What can be booked, and when: list interview types and free slots, and hold a slot for ${HOLD_MINUTES} minutes.`,
  'Courses and training events': `What can be booked in practical training: courses, locations, training events with their seats, and ${HOLD_MINUTES}-minute seat holds.`,
  'Courses and timeslots': `What can be booked in virtual life-support: courses (with or without a posted manikin), session timeslots with their seats left, and ${HOLD_MINUTES}-minute holds.`,
  Bookings: 'Book a held slot for a candidate, list bookings and read one, with its video meeting and interview report.',
  'Booking invites': 'Single-use links that let a candidate pick a training event and book it themselves, paid as the agency chose.',
  Candidates: 'The people references are requested for.',
  'Reference requests': 'Ask referees for employment references, follow their progress, remind and cancel.',
  References: "Each referee's reference: status, answers and score, and the completed reference as PDF.",
  Workers: 'The people whose NMC, HCPC or GMC registration the agency monitors: add, list, read, replace, patch and archive them.',
  Verifications: "Register checks of a worker: now, on demand, and their history with outcome, reasons, the register's own words and what changed.",
  Alerts: 'What the checks found: one unresolved alert per worker and type, raised and resolved by the register, acknowledged by people.',
  'Monitoring settings': 'Whether and how often each worker is checked on schedule, one by one and in bulk.',
  Evidence: 'The tamper-evident record of each completed check: metadata, and the record as PDF or exact JSON with its digest.',
  'Usage and billing': "What the month's register checks come to: billable and not, by register, trigger and day; postpaid, rolled up to the ledger monthly.",
  Imports: 'Workers from a CSV file: every row checked as `POST /workers` would check it, a dry run, and the row errors.',
  Team: 'The people of the agency: roles over a fixed set of permissions, users, and who gets alert e-mails. `Acting-User: <team user id>` on any request of this API acts as that user, within their role.',
  'Request groups':
    'Training, occupational health, appraisal, certificate and training verification requests: items the candidate or a third party answers, reviewed by the agency.',
  Account: "The agency's own account: credit and money balances, wallet transactions and its booking page link.",
  Payments: "Candidates' payments for `candidate_pays` bookings through Stripe Checkout: the events Stripe sends about them.",
  'Data subjects':
    "A person's rights over their data: export everything held about them, or erase it (names replaced, contact details and files removed, finance records kept).",
  Webhooks: 'Endpoints that receive signed events (Standard Webhooks), their delivery log, test events and replays.',
  'Public pages': 'HTML pages reached by e-mailed or shared links; the token in the link is the credential.',
  Documentation: 'This document and the interactive documentation page.',
} as const;

export type TagName = keyof typeof TAGS;
