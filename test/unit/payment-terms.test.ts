import { paymentTerms } from '../../functions/core/commerce/charges.js';
import { gbp } from '../../functions/core/commerce/money.js';

const rn = { name: 'Registered Nurse clinical interview', price: gbp(4500) };
const refusal = (f: () => unknown) => {
  try {
    f();
    return 'accepted';
  } catch (err) {
    const { code, message, extensions } = err as { code: string; message: string; extensions?: unknown };
    return { code, message, extensions };
  }
};

describe('what a booking charges, by pay option', () => {
  it('credits: one credit of the interview type, and the booking is booked and paid', () => {
    expect(paymentTerms('credits', rn, { funds: 1, invoiceEnabled: false })).toEqual({
      charge: 1,
      unit: 'credits',
      bookingStatus: 'booked',
      payStatus: 'completed',
    });
  });

  it('balance: the price in pence from the money balance, and the booking is booked and paid', () => {
    expect(paymentTerms('balance', rn, { funds: 4500, invoiceEnabled: false })).toEqual({
      charge: 4500,
      unit: 'GBP',
      bookingStatus: 'booked',
      payStatus: 'completed',
    });
  });

  it('invoice: the price on the invoice, nothing taken now, and the booking is booked and invoiced', () => {
    expect(paymentTerms('invoice', rn, { invoiceEnabled: true })).toEqual({ charge: 4500, unit: 'GBP', bookingStatus: 'booked', payStatus: 'invoiced' });
  });

  it('candidate_pays: the price asked of the candidate, and the booking waits for payment', () => {
    expect(paymentTerms('candidate_pays', rn, { invoiceEnabled: false })).toEqual({
      charge: 4500,
      unit: 'GBP',
      bookingStatus: 'pending_payment',
      payStatus: 'pending',
    });
  });

  it('refuses credits when none are left, saying how many there are', () => {
    expect(refusal(() => paymentTerms('credits', rn, { funds: 0, invoiceEnabled: true }))).toEqual({
      code: 'insufficient-credits',
      message: 'No Registered Nurse clinical interview credits left',
      extensions: { credits: 0 },
    });
    expect(refusal(() => paymentTerms('credits', rn, { invoiceEnabled: true }))).toMatchObject({ code: 'insufficient-credits', extensions: { credits: 0 } });
  });

  it('refuses a balance a penny short, with the price and the balance', () => {
    expect(refusal(() => paymentTerms('balance', rn, { funds: 4499, invoiceEnabled: true }))).toEqual({
      code: 'insufficient-balance',
      message: 'The booking costs £45.00; the balance is £44.99',
      extensions: { balance: { amount: 4499, currency: 'GBP' }, price: { amount: 4500, currency: 'GBP' } },
    });
  });

  it('refuses an invoice unless invoicing is enabled for the client', () => {
    expect(refusal(() => paymentTerms('invoice', rn, { invoiceEnabled: false }))).toMatchObject({
      code: 'invoice-disabled',
      message: 'Invoice payments are not enabled on this account',
    });
  });

  it('does not let one option draw on what another needs', () => {
    // Credits and balance ignore invoicing; invoice and candidate_pays need no funds.
    expect(paymentTerms('credits', rn, { funds: 3, invoiceEnabled: false }).charge).toBe(1);
    expect(paymentTerms('invoice', rn, { funds: 0, invoiceEnabled: true }).payStatus).toBe('invoiced');
    expect(paymentTerms('candidate_pays', rn, { funds: 0, invoiceEnabled: false }).bookingStatus).toBe('pending_payment');
  });
});
