/** Money is integer minor units with a currency. */
export interface Money {
  amount: number;
  currency: string;
}

export const CURRENCY = 'GBP';

export const gbp = (amount: number): Money => ({ amount, currency: CURRENCY });
