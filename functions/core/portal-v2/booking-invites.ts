import type { ClientAccount } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import type { Part } from '../platform/transact.js';
import type { PayOption } from '../platform/booking-vocabulary.js';
import { planInvite, type InviteOptions } from '../practical-training/invites.js';
import { planVlsInvite } from '../virtual-life-support/invites.js';
import type { GroupItem, GroupRequest } from '../requests/group.js';
import type { GroupEngineKind } from '../requests/group-kind.js';

/**
 * The booking kinds' invites (decision 11): each request item of a booking
 * kind is a real booking invite of its course family, written in the
 * request's own transaction and closed with it (rule 7:
 * ../bookings/invite-keys.ts). A family that books through invites
 * says here how to plan one.
 */

/** Where an invite's page is, by family: the handler knows the families' public addresses. */
export type InviteLinks = (family: FamilyId, token: string) => string;

/** The create fields of a booking kind. */
export interface BookingDetails {
  course_id: number;
  location_id?: number;
  training_event_id?: number;
  pay_option: PayOption;
  agency_contact_name?: string;
  agency_contact_email?: string;
}

export interface InvitedCandidate {
  first_name: string;
  last_name: string;
  email: string;
}

export interface PlannedInvite {
  id: number;
  parts: Part[];
}

interface InvitingFamily {
  /** The item's invite, checked (course, invoicing: 422 invoice-disabled) and ready for the caller's transaction. */
  plan(
    deps: Deps,
    client: ClientAccount,
    request: GroupRequest,
    item: Pick<GroupItem, 'id'>,
    candidate: InvitedCandidate,
    link: (token: string) => string,
  ): Promise<PlannedInvite>;
}

/** What every request's invite carries: its item as the source, the request's expiry, the agency contact to put on the booking. */
function inviteOptions(request: GroupRequest, item: Pick<GroupItem, 'id'>): InviteOptions {
  const d = request.details as unknown as BookingDetails;
  return {
    source: { kind: request.kind, request_id: request.id, item_id: item.id },
    expiresAt: request.expires_at,
    agencyContact: d.agency_contact_name || d.agency_contact_email ? { name: d.agency_contact_name ?? null, email: d.agency_contact_email ?? null } : undefined,
  };
}

const practicalTraining: InvitingFamily = {
  plan: async (deps, client, request, item, candidate, link) => {
    const d = request.details as unknown as BookingDetails;
    const { invite, parts } = await planInvite(
      deps,
      client,
      { candidate, course_id: d.course_id, training_event_id: d.training_event_id, location_id: d.location_id, pay_option: d.pay_option },
      { invite: link },
      inviteOptions(request, item),
    );
    return { id: invite.id, parts };
  },
};

/** Virtual life support: the invite is internal to the family (it has no invite operations); its page lists the course's timeslots. */
const lifeSupport: InvitingFamily = {
  plan: async (deps, client, request, item, candidate, link) => {
    const d = request.details as unknown as BookingDetails;
    const { invite, parts } = await planVlsInvite(
      deps,
      client,
      { candidate, course_id: d.course_id, pay_option: d.pay_option },
      link,
      inviteOptions(request, item),
    );
    return { id: invite.id, parts };
  },
};

const INVITING: Partial<Record<FamilyId, InvitingFamily>> = { 'practical-training': practicalTraining, 'virtual-life-support': lifeSupport };

export function invitingFamily(family: FamilyId): InvitingFamily {
  const inviting = INVITING[family];
  if (!inviting) throw new Error(`The ${family} family has no booking invites for request groups`);
  return inviting;
}

/** How a booking kind's items get their invites (in the family of the kind, at the page the links say); other kinds have none. */
export function bookingInvites(
  deps: Deps,
  kind: GroupEngineKind,
  client: ClientAccount,
  request: GroupRequest,
  candidate: InvitedCandidate,
  links: InviteLinks | undefined,
) {
  const family = kind.declaration.bookingFamily;
  if (!family) return undefined;
  if (!links) throw new Error(`${kind.declaration.kind} requests need the booking families' invite links`);
  const inviting = invitingFamily(family);
  return (item: Pick<GroupItem, 'id'>) => inviting.plan(deps, client, request, item, candidate, (token) => links(family, token));
}
