/** The groups operations are listed under in the documents, in this order; each contract entry names one. */
export const TAGS = {
  Authentication: 'Exchange client credentials for short-lived bearer tokens, refresh and revoke them.',
  'Interview types and timeslots': 'What can be booked, and when: list interview types and free slots, and hold a slot for 30 minutes.',
  'Courses and training events': 'What can be booked in practical training: courses, locations, training events with their seats, and 30-minute seat holds.',
  'Courses and timeslots': 'What can be booked in virtual life-support: courses (with or without a posted manikin), session timeslots with their seats left, and 30-minute holds.',
  Bookings: 'Book a held slot for a candidate, list bookings and read one, with its video meeting and interview report.',
  'Booking invites': 'Single-use links that let a candidate pick a training event and book it themselves, paid as the agency chose.',
  Candidates: 'The people references are requested for.',
  'Reference requests': 'Ask referees for employment references, follow their progress, remind and cancel.',
  References: "Each referee's reference: status, answers and score, and the completed reference as PDF.",
  'Request groups': 'Training, occupational health, appraisal, certificate and training verification requests: items the candidate or a third party answers, reviewed by the agency.',
  Account: "The agency's own account: credit and money balances, wallet transactions and its booking page link.",
  Webhooks: 'Endpoints that receive signed events (Standard Webhooks), their delivery log, test events and replays.',
  'Public pages': 'HTML pages reached by e-mailed or shared links; the token in the link is the credential.',
  Documentation: 'This document and the interactive documentation page.',
} as const;

export type TagName = keyof typeof TAGS;
