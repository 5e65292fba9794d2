import type { Deps } from '../platform/deps.js';
import type { ProductRef } from './ledger.js';

/** One thing a family sells, a credits wallet each: an interview type, a course. */
export interface SoldProduct {
  id: number;
  name: string;
  active: boolean;
}

export interface Products {
  /** What the family calls its product in balances and the ledger. */
  label: ProductRef['kind'];
  products: SoldProduct[];
}

/** What a booking family provides to say what it sells (core/booking-families.ts lists each). */
export type ProductsOf = (deps: Deps) => Promise<Products>;

/** A family that sells nothing through credits wallets. */
export const NO_PRODUCTS: Products = { label: 'interview_type', products: [] };
