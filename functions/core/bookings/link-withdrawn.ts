import { DomainError } from '../platform/errors.js';

/**
 * A disabled client's public links and invites answer 410 with a plain page
 * and take no booking, hold or charge. Core code
 * refuses with this; the page handler (functions/middleware/page-handler.ts)
 * turns it into that page, whatever page raised it. Apart, so the page
 * handler knows it without loading the booking engine.
 */
export const linkWithdrawn = (): DomainError =>
  new DomainError('invalid-state', 'This agency no longer takes bookings through this link. Please contact the agency.', { gone: 'withdrawn' });

/** Is this the withdrawn-link refusal? */
export const isLinkWithdrawn = (err: unknown): boolean => err instanceof DomainError && err.extensions.gone === 'withdrawn';

/** The link of a booking whose candidate's data was erased (data-rights/): 410 with a plain page, like a withdrawn one. */
export const linkErased = (): DomainError => new DomainError('invalid-state', 'This link is no longer in use.', { gone: 'withdrawn' });
