import * as v from 'valibot';
import { email, name, nmcNumber, phone } from '../../api/schemas/fields.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import type { FamilyId } from '../../core/platform/families.js';
import { inviteGone } from '../../core/practical-training/invites-page.js';
import { inviteOfToken, type InviteItem } from '../../core/practical-training/invites.js';
import { layout } from '../../middleware/html.js';

/** What every family's invite page shares: the candidate's details, and the page of a used or expired invite. */

export const InviteBookingForm = v.object({
  first_name: name(),
  last_name: name(),
  email,
  phone,
  job_role: name(),
  nmc_number: v.optional(v.union([v.literal(''), nmcNumber]), ''),
});

/** The page a used or expired invite answers, with 410. */
export function gonePage(state: 'used' | 'expired'): { status: number; html: string } {
  const html =
    state === 'used'
      ? layout('This invite has been used', '<h1>This invite has been used</h1><p>A place has already been booked with this link. Each invite books once; ask your agency if you need another.</p>')
      : layout('This invite has expired', '<h1>This invite has expired</h1><p>The link is no longer valid. Please ask your agency for a new invite.</p>');
  return { status: 410, html };
}


/** The invite behind the token (of the family whose page it is), or the 410 page when it can no longer be used. */
export async function liveInvite(deps: Deps, token: string, family?: FamilyId): Promise<InviteItem | { status: number; html: string }> {
  const invite = await inviteOfToken(deps, token, family);
  const state = inviteGone(invite, deps.clock());
  return state ? gonePage(state) : invite;
}

/** A refusal that means the invite was used (or expired) meanwhile: the 410 page; anything else, undefined. */
export async function goneMeanwhile(deps: Deps, token: string, err: unknown, family?: FamilyId): Promise<{ status: number; html: string } | undefined> {
  if (!(err instanceof DomainError)) return undefined;
  const state = inviteGone(await inviteOfToken(deps, token, family), deps.clock());
  return state ? gonePage(state) : undefined;
}

/** What the candidate reads when the agency's pay option is refused: nothing was booked, the invite still works. */
const FUNDS = new Set(['insufficient-credits', 'insufficient-balance', 'invoice-disabled']);

export const fundsNotice = (err: DomainError, firstName: string): string | undefined =>
  FUNDS.has(err.code)
    ? `${firstName}, your agency cannot pay for this place just now, so nothing was booked. Your invite still works: please ask your agency, then try again.`
    : undefined;

/** What a date shows when the agency's invites hold as many of its seats as they may (abuse-and-isolation 3). */
export const BUSY = 'busy just now, please try another date or again in a few minutes';

/** What the invite page says when a seat could not be held: the date full, busy with the agency's invites, or closed. */
export const holdNotice = (err: DomainError): string =>
  err.code === 'event-full' || (err.code === 'slot-unavailable' && err.extensions?.reason === 'full')
    ? 'Every seat of that date has just been taken. Please choose another.'
    : err.code === 'limit-reached'
      ? 'That date is busy just now: please try another date or again in a few minutes.'
      : 'That date is no longer open for booking. Please choose another.';
