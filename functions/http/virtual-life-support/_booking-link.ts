import * as v from 'valibot';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { clientOfVlsLink, vlsLinkChoices } from '../../core/virtual-life-support/booking-link.js';
import { InviteBookingForm } from '../shared/_invite-pages.js';
import { SlotField, type VlsLinkPageModel } from './_invite-pages.js';

/** The booking link's form: a time of the course, and the candidate's details (the address is checked apart, for a course that posts a manikin). */
export const VlsLinkForm = v.object({ slot: SlotField, ...InviteBookingForm.entries });

export async function vlsLinkModel(deps: Deps, token: string, courseId: string | undefined, actions: VlsLinkPageModel['actions']): Promise<VlsLinkPageModel> {
  const client = await getClient(deps, await clientOfVlsLink(deps, token));
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  const id = Number(courseId);
  const choices = await vlsLinkChoices(deps, Number.isSafeInteger(id) ? id : undefined);
  return { agency: client.name, ...choices, actions, values: {}, errors: {} };
}
