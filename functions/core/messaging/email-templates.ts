import { readableDay } from '../platform/time.js';

/**
 * Every e-mail the service sends, in one place. Each returns the subject and
 * a plain-text body holding the links.
 */
export interface EmailContent {
  template: string;
  subject: string;
  text: string;
}

export function bookingPaymentLink(input: {
  candidateName: string;
  interviewType: string;
  when: string;
  agency: string;
  amount: string;
  paymentUrl: string;
  /** When the booking is cancelled if still unpaid, as people read it. */
  payBy?: string;
}): EmailContent {
  return {
    template: 'booking-payment-link',
    subject: `Pay for your ${input.interviewType} on ${input.when}`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `${input.agency} has booked you a ${input.interviewType} on ${input.when}.`,
      `To confirm it, pay ${input.amount} here:`,
      '',
      input.paymentUrl,
      '',
      'The booking is confirmed as soon as the payment goes through.',
      ...(input.payBy ? [`Please pay by ${input.payBy}: an unpaid booking is cancelled then and the time offered to others.`] : []),
    ].join('\n'),
  };
}

const day = (iso: string) => readableDay(iso, 'Europe/London');

export function refereeInvitation(input: { refereeName: string; candidateName: string; agency: string; formUrl: string; expiresAt: string }): EmailContent {
  return {
    template: 'referee-invitation',
    subject: `Reference request for ${input.candidateName}`,
    text: [
      `Dear ${input.refereeName},`,
      '',
      `${input.agency} has asked for an employment reference for ${input.candidateName}, who named you as a referee.`,
      'Please complete the reference form here (it takes a few minutes, and you may also decline):',
      '',
      input.formUrl,
      '',
      `The link works until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

export function candidateInvitation(input: {
  candidateName: string;
  agency: string;
  submissionUrl: string;
  required: number;
  expiresAt: string;
}): EmailContent {
  return {
    template: 'candidate-invitation',
    subject: `${input.agency} needs your referees`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `${input.agency} needs ${input.required} employment reference${input.required === 1 ? '' : 's'} for you.`,
      'Please enter your referees here; we will contact them for you:',
      '',
      input.submissionUrl,
      '',
      `The link works until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

export function referenceReminder(input: { refereeName: string; candidateName: string; agency: string; formUrl: string; expiresAt: string }): EmailContent {
  return {
    template: 'reference-reminder',
    subject: `Reminder: reference for ${input.candidateName}`,
    text: [
      `Dear ${input.refereeName},`,
      '',
      `A reminder that ${input.agency} is waiting for your reference for ${input.candidateName}.`,
      '',
      input.formUrl,
      '',
      `The link works until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

export function bookingInvitation(input: {
  candidateName: string;
  agency: string;
  course: string;
  inviteUrl: string;
  expiresAt: string;
  message: string | null;
  pays: boolean;
}): EmailContent {
  return {
    template: 'booking-invitation',
    subject: `${input.agency} invites you to book ${input.course}`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `${input.agency} invites you to book a place on ${input.course}.`,
      ...(input.message ? ['', input.message, ''] : []),
      `Choose a date and book here${input.pays ? ' (you pay for the place when you book)' : ''}:`,
      '',
      input.inviteUrl,
      '',
      `The link can be used once, until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

/** What a booking notice says about the booking: the kind's words, the engine's dates. */
export interface BookingNoticeInput {
  candidateName: string;
  title: string;
  agency: string;
  /** As people read it: "Tuesday 24 November, 09:45". */
  when: string;
  /** The kind's details (the join link among them). */
  details: string;
}

const noticeText = (input: BookingNoticeInput, opening: string, closing: string[]) =>
  [`Dear ${input.candidateName},`, '', opening, '', input.details, '', ...closing].join('\n');

export function bookingConfirmed(input: BookingNoticeInput): EmailContent {
  return {
    template: 'booking-confirmed',
    subject: `Confirmed: ${input.title} on ${input.when}`,
    text: noticeText(input, `${input.agency} has booked your ${input.title} for ${input.when}. It is confirmed.`, [
      'The attached invitation adds it to your calendar.',
    ]),
  };
}

export function bookingRescheduled(input: BookingNoticeInput & { previously: string }): EmailContent {
  return {
    template: 'booking-rescheduled',
    subject: `Moved: ${input.title} is now on ${input.when}`,
    text: noticeText(input, `Your ${input.title} has moved from ${input.previously} to ${input.when}.`, [
      'The attached invitation updates the entry in your calendar.',
    ]),
  };
}

export function bookingCancelled(input: BookingNoticeInput & { unpaid: boolean }): EmailContent {
  const why = input.unpaid ? ' because it was not paid for in time' : '';
  return {
    template: 'booking-cancelled',
    subject: `Cancelled: ${input.title} on ${input.when}`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `Your ${input.title} on ${input.when}, booked by ${input.agency}, has been cancelled${why}.`,
      '',
      'The attached cancellation removes it from your calendar. Please contact the agency to book another time.',
    ].join('\n'),
  };
}

/** A request group's actor (candidate, OH provider, issuer, appraiser) is asked for something: `what` names it, never item data. */
export function requestInvitation(input: {
  name: string;
  agency: string;
  what: string;
  candidateName: string;
  url: string;
  expiresAt: string;
  third: boolean;
}): EmailContent {
  return {
    template: input.third ? 'request-form-invitation' : 'request-invitation',
    subject: input.third ? `${input.what} for ${input.candidateName}` : `${input.agency} asks for your ${input.what.toLowerCase()}`,
    text: [
      `Dear ${input.name},`,
      '',
      input.third
        ? `${input.agency} asks you to answer a ${input.what.toLowerCase()} about ${input.candidateName}. Please use this form:`
        : `${input.agency} asks you for your ${input.what.toLowerCase()}. Please give the details and upload your documents here:`,
      '',
      input.url,
      '',
      `The link works until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

export function requestReminder(input: { name: string; agency: string; what: string; url: string; expiresAt: string }): EmailContent {
  return {
    template: 'request-reminder',
    subject: `Reminder: ${input.what.toLowerCase()} for ${input.agency}`,
    text: [
      `Dear ${input.name},`,
      '',
      `${input.agency} is still waiting for your ${input.what.toLowerCase()}. Please use this link:`,
      '',
      input.url,
      '',
      `The link works until ${day(input.expiresAt)}.`,
    ].join('\n'),
  };
}

/** An item was rejected: the actor is told why and given the same link to submit again. */
export function requestItemRejected(input: { name: string; agency: string; item: string; reason: string; url: string }): EmailContent {
  return {
    template: 'request-item-rejected',
    subject: `Please send your ${input.item.toLowerCase()} again`,
    text: [
      `Dear ${input.name},`,
      '',
      `${input.agency} could not accept your ${input.item.toLowerCase()}:`,
      '',
      input.reason,
      '',
      'Please submit it again here:',
      '',
      input.url,
    ].join('\n'),
  };
}

/** A lent item is on its way to the candidate (the virtual life-support manikin). */
export function equipmentDispatched(input: {
  candidateName: string;
  item: string;
  course: string;
  when: string;
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
  returnBy: string;
  agency: string;
}): EmailContent {
  return {
    template: 'equipment-dispatched',
    subject: `Your ${input.item} for ${input.course} is on its way`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `The ${input.item} for your ${input.course} session on ${input.when} has been posted with ${input.carrier}.`,
      `Tracking number: ${input.trackingNumber}`,
      ...(input.trackingUrl ? [`Track it: ${input.trackingUrl}`] : []),
      '',
      `Please post it back in the same box by ${input.returnBy}. A late return is charged to ${input.agency}.`,
    ].join('\n'),
  };
}

/** Registration monitoring: an alert created or escalated, to a team user who asked to hear of its severity. */
export function monitoringAlert(input: {
  userName: string;
  workerName: string;
  type: string;
  severity: string;
  escalated: boolean;
  details: { from: unknown; to: unknown };
  alertId: number;
  simulated: boolean;
}): EmailContent {
  const what = `${input.severity} alert for ${input.workerName}: ${input.type}`;
  return {
    template: 'monitoring-alert',
    // A simulated register's alert says so where it is seen first.
    subject: `${input.simulated ? '[SIMULATED] ' : ''}${input.escalated ? 'Escalated: ' : ''}${what}`,
    text: [
      `Dear ${input.userName},`,
      '',
      `A registration check ${input.escalated ? 'raised the severity of' : 'found'} a ${what}.`,
      `It was ${JSON.stringify(input.details.from)}; it is now ${JSON.stringify(input.details.to)}.`,
      '',
      `Alert ${input.alertId}: GET /registration-monitoring/alerts/${input.alertId}`,
      ...(input.simulated ? ['', 'SIMULATED: the simulated register answered this check; no real register was asked.'] : []),
    ].join('\n'),
  };
}

/** A candidate's payment the booking cannot keep: it came after the booking stopped taking payment, or the booking was paid already. The money goes back. */
export function latePaymentRefunded(input: {
  candidateName: string;
  agency: string;
  what: string;
  when: string;
  amount: string;
  reason: 'too-late' | 'paid-twice';
}): EmailContent {
  const why =
    input.reason === 'paid-twice'
      ? ['but the booking had already been paid for, so this second payment is not needed. Your place stays confirmed.']
      : ['but the booking had already been cancelled or its time to pay had passed, so the place was not kept for you.'];
  return {
    template: 'late-payment-refunded',
    subject: `Your payment for ${input.what} is being refunded`,
    text: [
      `Dear ${input.candidateName},`,
      '',
      `We received your payment of ${input.amount} for ${input.what} on ${input.when}, booked by ${input.agency},`,
      ...why,
      '',
      `The whole ${input.amount} is on its way back to you: refunds usually reach your account within 5 to 10 working days.`,
      ...(input.reason === 'too-late' ? [`Please contact ${input.agency} if you would like to book again.`] : []),
    ].join('\n'),
  };
}
