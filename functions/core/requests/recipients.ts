import { fieldRefusal } from '../platform/errors.js';

/** Rules about who a request reaches. */

/** An address as a mailbox receives it: case folded, and a `+tag` of the local part dropped (`Ann+ref@x` reaches `ann@x`). */
export function mailboxOf(address: string): string {
  const folded = address.trim().toLowerCase();
  const at = folded.lastIndexOf('@');
  if (at < 0) return folded;
  const local = folded.slice(0, at);
  const plus = local.indexOf('+');
  return (plus >= 0 ? local.slice(0, plus) : local) + folded.slice(at);
}

/** The same mailbox, after case and a `+tag` in the local part. */
export const sameAddress = (a: string, b: string): boolean => mailboxOf(a) === mailboxOf(b);

/**
 * A third party must not be the candidate: refuses the first recipient whose
 * e-mail address is the candidate's own mailbox (whatever its case or a
 * `+tag` in the local part), as an error on that recipient's
 * field (`field(i)`: a JSON pointer for the API, a form field for a page).
 */
export function refuseCandidateAddress(candidateEmail: string, emails: string[], field: (index: number) => string, message: string): void {
  const index = emails.findIndex((e) => sameAddress(e, candidateEmail));
  if (index >= 0) throw fieldRefusal(field(index), message);
}
