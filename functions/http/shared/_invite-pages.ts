import * as v from 'valibot';
import { linkTo, type Operation } from '../../api/routes/operation.js';
import { email, InvitePageQuery, name, nmcNumber, phone } from '../../api/schemas/fields.js';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import type { FamilyId } from '../../core/platform/families.js';
import { inviteGone } from '../../core/practical-training/invites-page.js';
import { inviteOfToken, type InviteItem } from '../../core/practical-training/invites.js';
import { escapeHtml, layout } from '../../middleware/html.js';

/** What every family's invite page shares: the candidate's details, and the page of a used or expired invite. */

export const InviteBookingForm = v.object({
  first_name: name(),
  last_name: name(),
  email,
  phone,
  job_role: name(),
  nmc_number: v.optional(v.union([v.literal(''), nmcNumber]), ''),
});

/** The booking form's first answers: the candidate as the agency named them. */
export const inviteFormValues = (invite: InviteItem): Record<string, string> => ({
  first_name: invite.candidate.first_name,
  last_name: invite.candidate.last_name,
  email: invite.candidate.email,
});

/** The name every page of an invite is under: the agency's. */
export const inviteAgency = async (deps: Deps, invite: Pick<InviteItem, 'client_id'>): Promise<string> =>
  (await getClient(deps, invite.client_id))?.name ?? 'Your agency';

/** The page a used or expired invite answers, with 410, under the agency's name like every page of the invite. */
export async function gonePage(deps: Deps, invite: InviteItem, state: 'used' | 'expired'): Promise<{ status: number; html: string }> {
  const agency = await inviteAgency(deps, invite);
  const html =
    state === 'used'
      ? layout(
          'This invite has been used',
          `<h1>This invite has been used</h1><p>A place has already been booked with this link. Each invite books once; ask ${escapeHtml(agency)} if you need another.</p>`,
          agency,
        )
      : layout(
          'This invite has expired',
          `<h1>This invite has expired</h1><p>The link is no longer valid. Please ask ${escapeHtml(agency)} for a new invite.</p>`,
          agency,
        );
  return { status: 410, html };
}

/** The invite behind the token (of the family whose page it is), or the 410 page when it can no longer be used. */
export async function liveInvite(deps: Deps, token: string, family?: FamilyId): Promise<InviteItem | { status: number; html: string }> {
  const invite = await inviteOfToken(deps, token, family);
  const state = inviteGone(invite, deps.clock());
  return state ? gonePage(deps, invite, state) : invite;
}

/** A refusal that means the invite was used (or expired) meanwhile: the 410 page; anything else, undefined. */
export async function goneMeanwhile(deps: Deps, token: string, err: unknown, family?: FamilyId): Promise<{ status: number; html: string } | undefined> {
  if (!(err instanceof DomainError)) return undefined;
  const invite = await inviteOfToken(deps, token, family);
  const state = inviteGone(invite, deps.clock());
  return state ? gonePage(deps, invite, state) : undefined;
}

/**
 * The booking form posted without a seat held (it ran out, or was given
 * back in another tab): back to the invite page, which says so above its
 * dates. The form's answer is the form alone, so the page's dates are the
 * page's to show (and the booking's function does not load them). The form
 * posts to the page's own address, so its operation gives the way back.
 */
export const seatLost = (baseUrl: string, bookingForm: Pick<Operation, 'path'>, token: string) => ({
  redirect: `${linkTo(baseUrl, bookingForm, { token })}?notice=seat-lost`,
});

/** The notice the invite page shows for its query, if the query is one the page sets; anything else is ignored. */
export function inviteNotice(query: Record<string, string>, seatLostText: string): string | undefined {
  const parsed = v.safeParse(InvitePageQuery, query);
  return parsed.success && parsed.output.notice === 'seat-lost' ? seatLostText : undefined;
}

/** What the candidate reads when the agency's pay option is refused: nothing was booked, the invite still works. */
const FUNDS = new Set(['insufficient-credits', 'insufficient-balance', 'invoice-disabled']);

export const fundsNotice = (err: DomainError, firstName: string): string | undefined =>
  FUNDS.has(err.code)
    ? `${firstName}, your agency cannot pay for this place just now, so nothing was booked. Your invite still works: please ask your agency, then try again.`
    : undefined;

/** What a date shows when the agency's invites hold as many of its seats as they may. */
export const BUSY = 'busy just now, please try another date or again in a few minutes';

/** One date or time the invite page offers: when, where, how many seats; a busy one is shown without its button. */
export interface InviteChoice {
  value: string;
  when: string;
  where: string;
  seats: number;
  busy: boolean;
}

/** The invite page's dates (or times), each its own small form that holds a seat: one card per choice, the button beside its words (and naming its date to a screen reader, where every button reads alike). */
export function inviteChoices(action: string, field: string, button: string, choices: readonly InviteChoice[]): string {
  const items = choices.map((c) => {
    const words = `<span class="when">${escapeHtml(c.when)}</span><span class="where">${escapeHtml(c.where)}${c.busy ? '' : ` · ${c.seats} seat${c.seats === 1 ? '' : 's'} left`}</span>`;
    return c.busy
      ? `<li><div class="choice"><span>${words}<span class="busy">${BUSY}</span></span></div></li>`
      : `<li><form class="choice" method="post" action="${escapeHtml(action)}"><input type="hidden" name="${field}" value="${escapeHtml(c.value)}"><span>${words}</span><button type="submit" aria-label="${escapeHtml(`${button}: ${c.when}`)}">${escapeHtml(button)}</button></form></li>`;
  });
  return `<ul class="choices">\n${items.join('\n')}\n</ul>`;
}

/** What the invite page says when a seat could not be held: the date full, busy with the agency's invites, or closed. */
export const holdNotice = (err: DomainError): string =>
  err.code === 'event-full' || (err.code === 'slot-unavailable' && err.extensions?.reason === 'full')
    ? 'Every seat of that date has just been taken. Please choose another.'
    : err.code === 'limit-reached'
      ? 'That date is busy just now: please try another date or again in a few minutes.'
      : 'That date is no longer open for booking. Please choose another.';
