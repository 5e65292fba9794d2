import { fieldRefusal } from '../platform/errors.js';

/** Rules about who a request reaches. */

export const sameAddress = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A third party must not be the candidate: refuses the first recipient whose
 * e-mail address is the candidate's own, as an error on that recipient's
 * field (`field(i)`: a JSON pointer for the API, a form field for a page).
 */
export function refuseCandidateAddress(candidateEmail: string, emails: string[], field: (index: number) => string, message: string): void {
  const index = emails.findIndex((e) => sameAddress(e, candidateEmail));
  if (index >= 0) throw fieldRefusal(field(index), message);
}
