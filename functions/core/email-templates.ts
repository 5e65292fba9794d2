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
      'The interview is confirmed as soon as the payment goes through.',
    ].join('\n'),
  };
}
