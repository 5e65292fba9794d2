import type { BookingLinks } from '../../core/bookings/commit.js';

/**
 * Where a candidate pays for a candidate_pays booking. The family's payment
 * page (`/pay/{token}`) is served by its public pages; the link is spelled
 * from the family's base URL until that route is in the table.
 */
export const paymentLinks = (baseUrl: string): BookingLinks => ({ payment: (token) => `${baseUrl}/pay/${encodeURIComponent(token)}` });
