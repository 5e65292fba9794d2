import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys, getClient, type ClientAccount } from '../access/clients.js';
import { eventKindsOf } from '../events/kinds.js';
import { emailPut, eventPut } from '../events/outbox.js';
import { bookingInvitation } from '../messaging/email-templates.js';
import { addSeconds } from '../platform/clock.js';
import { queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import type { FamilyId } from '../platform/families.js';
import type { Page } from '../platform/pagination.js';
import { randomToken, sha256Hex } from '../platform/secrets.js';
import { formatWithOffset } from '../platform/time.js';
import { allOf, itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Condition, type Part } from '../platform/transact.js';
import type { PayOption } from '../platform/booking-vocabulary.js';
import type { RequestSource } from '../requests/shapes.js';
import { linkWithdrawn } from '../bookings/link-withdrawn.js';
import { inviteKeys, inviteOpen } from '../bookings/invite-keys.js';
import { inviteFundsPart } from './invite-funds.js';
import { getTrainingEventItem, loadCatalogue, PRACTICAL_FAMILY, type Course, type Location, type TrainingEventItem } from './catalogue.js';

/**
 * Booking invites: an agency e-mails a
 * candidate a single-use link to book a course. The link's token is kept only
 * as its SHA-256; the invite charges nothing and reserves nothing until the
 * candidate books through it (decision 6).
 */

export type InviteStatus = 'queued' | 'sent' | 'opened' | 'used' | 'expired';

export interface InviteItem {
  id: number;
  uuid: string;
  client_id: string;
  /** The family whose invite it is; absent: practical training (the life-support family keeps its request groups' invites beside these). */
  family?: FamilyId;
  status: Exclude<InviteStatus, 'expired'>;
  candidate: { first_name: string; last_name: string; email: string };
  course: { id: number; name: string; code: string };
  training_event_id: number | null;
  location_id: number | null;
  pay_option: PayOption;
  message: string | null;
  open_count: number;
  booking_id: number | null;
  /** A portal v2 request's item the invite answers (decision 11); the booking made with it carries it too. */
  source?: RequestSource;
  /** The agency's contact for the booking, from the request. */
  agency_contact?: { name: string | null; email: string | null };
  sent_at?: string;
  opened_at?: string;
  used_at?: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

const FAMILY = PRACTICAL_FAMILY;
export const inviteFamily = (i: Pick<InviteItem, 'family'>): FamilyId => i.family ?? FAMILY;
export const tokenHash = (token: string): string => sha256Hex(token);

/** *inviteUsable*: not used, not expired by the clock. */
export const inviteUsable = (now: Date): Condition => allOf(inviteOpen, { expression: 'expires_at > :now', values: { ':now': now.toISOString() } });

/** The status an invite shows: past `expires_at` and unused, it is expired whatever was stored. */
export const inviteStatus = (i: Pick<InviteItem, 'status' | 'expires_at'>, now: Date): InviteStatus =>
  i.status !== 'used' && i.expires_at <= now.toISOString() ? 'expired' : i.status;

const at = (iso: string | undefined, tz: string) => (iso ? formatWithOffset(iso, tz) : null);

export function toInviteView(i: InviteItem, ctx: { now: Date; timeZone: string; event?: TrainingEventItem; location?: Location }) {
  const tz = ctx.timeZone;
  return {
    id: i.id,
    uuid: i.uuid,
    status: inviteStatus(i, ctx.now),
    candidate: i.candidate,
    course: i.course,
    training_event: ctx.event
      ? { id: ctx.event.id, date: ctx.event.date, start_time: ctx.event.start_time, start_at: formatWithOffset(ctx.event.start_at, tz) }
      : null,
    location: ctx.location ? { id: ctx.location.id, name: ctx.location.name, town: ctx.location.address.town, postcode: ctx.location.address.postcode } : null,
    pay_option: i.pay_option,
    message: i.message,
    open_count: i.open_count,
    booking_id: i.booking_id,
    sent_at: at(i.sent_at, tz),
    opened_at: at(i.opened_at, tz),
    used_at: at(i.used_at, tz),
    expires_at: formatWithOffset(i.expires_at, tz),
    created_at: formatWithOffset(i.created_at, tz),
    updated_at: formatWithOffset(i.updated_at, tz),
  };
}
export type InviteView = ReturnType<typeof toInviteView>;

/** What the invite's view summarises besides itself: the event it pins, or the location it narrows to. */
export async function viewContext(deps: Deps, i: InviteItem): Promise<{ event?: TrainingEventItem; location?: Location }> {
  const [{ locations }, event] = await Promise.all([loadCatalogue(deps), i.training_event_id ? getTrainingEventItem(deps, i.training_event_id) : undefined]);
  return { event, location: i.location_id ? locations.find((l) => l.id === i.location_id) : undefined };
}

/** The invite as the API shows it, with the summaries of what it pins. */
async function viewOf(deps: Deps, i: InviteItem): Promise<InviteView> {
  return toInviteView(i, { now: deps.clock(), timeZone: deps.config.serviceTimeZone, ...(await viewContext(deps, i)) });
}

export const DEFAULT_EXPIRY_DAYS = 14;

export interface NewInvite {
  candidate: { first_name: string; last_name: string; email: string };
  course_id: number;
  training_event_id?: number;
  location_id?: number;
  pay_option: PayOption;
  expires_in_days?: number;
  message?: string;
}

/** What an invite may name: an active course; a pinned event of that course, not cancelled; an active location. */
async function checkTargets(deps: Deps, input: NewInvite): Promise<{ course: Course; event?: TrainingEventItem }> {
  const { courses, locations } = await loadCatalogue(deps);
  const course = courses.find((c) => c.id === input.course_id && c.active);
  if (!course) throw fieldRefusal('/course_id', `No active course ${input.course_id}`);
  if (input.training_event_id !== undefined && input.location_id !== undefined)
    throw fieldRefusal('/location_id', 'Give training_event_id or location_id, not both');
  let event: TrainingEventItem | undefined;
  if (input.training_event_id !== undefined) {
    event = await getTrainingEventItem(deps, input.training_event_id);
    if (!event || event.course_id !== course.id || event.cancelled_at || event.end_at <= deps.clock().toISOString()) {
      throw fieldRefusal('/training_event_id', `No upcoming event ${input.training_event_id} of course ${course.id}`);
    }
  }
  if (input.location_id !== undefined && !locations.some((l) => l.id === input.location_id && l.active))
    throw fieldRefusal('/location_id', `No active location ${input.location_id}`);
  return { course, event };
}

/** A new invite's record, its link and the parts that write it (invite, token hash, e-mail), for one transaction. */
export interface InvitePlan {
  invite: InviteItem;
  url: string;
  parts: Part[];
}

export interface InviteOptions {
  /** The demo data's invites: a token known in advance, and no e-mail (nobody to mail). */
  demo?: { token: string };
  /** A portal v2 request's item: the invite expires with the request and its use books the item. */
  source?: RequestSource;
  expiresAt?: string;
  agencyContact?: InviteItem['agency_contact'];
}

/**
 * A new invite (`queued`): checked (invoicing, the course and what it pins),
 * numbered, and its parts (the invite, its token's hash, the e-mail) ready for
 * the caller's transaction. The URL is known here only: the token is not kept.
 */
export async function planInvite(
  deps: Deps,
  client: ClientAccount,
  input: NewInvite,
  links: { invite: (token: string) => string },
  options: InviteOptions = {},
): Promise<InvitePlan> {
  refuseInvoice(client, input.pay_option);
  const { course } = await checkTargets(deps, input);
  return inviteOf(deps, FAMILY, client, { ...input, course: { id: course.id, name: course.name, code: course.code } }, links, options);
}

/** `invoice` needs invoicing on the account (portal 1.3 rule 8). */
export function refuseInvoice(client: ClientAccount, payOption: PayOption): void {
  if (payOption === 'invoice' && !client.invoiceEnabled) throw new DomainError('invoice-disabled', 'Invoice payments are not enabled on this account');
}

/** A checked invite of a family's course: its record, link and parts (the e-mail carries a hand-over receipt). */
export async function inviteOf(
  deps: Deps,
  family: FamilyId,
  client: ClientAccount,
  input: Omit<NewInvite, 'course_id'> & { course: InviteItem['course'] },
  links: { invite: (token: string) => string },
  options: InviteOptions,
): Promise<InvitePlan> {
  const clientId = client.clientId;
  const now = deps.clock();
  const token = options.demo?.token ?? randomToken(32);
  const id = await nextId(deps, family, 'booking-invite');
  const invite: InviteItem = {
    id,
    uuid: randomUUID(),
    client_id: clientId,
    family,
    status: 'queued',
    candidate: input.candidate,
    course: input.course,
    training_event_id: input.training_event_id ?? null,
    location_id: input.location_id ?? null,
    pay_option: input.pay_option,
    message: input.message ?? null,
    open_count: 0,
    booking_id: null,
    ...(options.source ? { source: options.source } : {}),
    ...(options.agencyContact ? { agency_contact: options.agencyContact } : {}),
    expires_at: options.expiresAt ?? addSeconds(now, (input.expires_in_days ?? DEFAULT_EXPIRY_DAYS) * 86_400).toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const url = links.invite(token);
  const mail = bookingInvitation({
    candidateName: `${input.candidate.first_name} ${input.candidate.last_name}`,
    agency: client.name,
    course: input.course.name,
    inviteUrl: url,
    expiresAt: invite.expires_at,
    message: invite.message,
    pays: invite.pay_option === 'candidate_pays',
  });
  const parts = [
    part('invite', putItem(deps, { ...inviteKeys.invite(clientId, family, id), entity: 'booking-invite', ...invite }, itemAbsent)),
    part('token', putItem(deps, { ...inviteKeys.token(family, tokenHash(token)), entity: 'invite-token', client_id: clientId, invite_id: id }, itemAbsent)),
    ...(options.demo
      ? []
      : [
          part(
            'email',
            emailPut(deps, { ...mail, to: input.candidate.email, receipt: { kind: 'booking-invite', family, client_id: clientId, invite_id: id } }),
          ),
        ]),
  ];
  return { invite, url, parts };
}

/** POST /booking-invites: the invite, its token's hash and the e-mail in one transaction. The URL is returned here only. */
export async function createInvite(
  deps: Deps,
  clientId: string,
  input: NewInvite,
  links: { invite: (token: string) => string },
  demo?: { token: string },
): Promise<InviteView & { invite_url: string }> {
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', `No client ${clientId}`);
  for (let attempt = 1; ; attempt++) {
    const { invite, url, parts } = await planInvite(deps, client, input, links, { demo });
    const funds = await inviteFundsPart(deps, clientId, input);
    try {
      await transact(deps, [...parts, ...funds]);
      return { ...(await viewOf(deps, invite)), invite_url: url };
    } catch (err) {
      // Another invite was made, or the wallet spent, since the open invites were counted: count again.
      if (!(err instanceof TransactionFailed && err.has('funds')) || attempt >= 5) throw err;
    }
  }
}

export async function getInviteItem(deps: Deps, clientId: string, id: number, family: FamilyId = FAMILY): Promise<InviteItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: inviteKeys.invite(clientId, family, id), ConsistentRead: true }));
  return Item as InviteItem | undefined;
}

/** GET /booking-invites/{id}: the caller's invite; another client's is not-found. */
export async function getInvite(deps: Deps, clientId: string, id: number): Promise<InviteView> {
  const item = await getInviteItem(deps, clientId, id);
  if (!item) throw new DomainError('not-found', `No booking invite ${id}`);
  return viewOf(deps, item);
}

/** GET /booking-invites: newest first. */
export const listInvites = (deps: Deps, clientId: string, page: { limit: number; cursor?: string }): Promise<Page<InviteView>> =>
  queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: inviteKeys.prefix(FAMILY), limit: page.limit, cursor: page.cursor }, (item) =>
    viewOf(deps, item as unknown as InviteItem),
  );

/**
 * The invite a link token leads to; an unknown token is not-found. A
 * disabled agency's invite is withdrawn (its pages answer 410 and take no
 * hold, booking or charge).
 */
export async function inviteOfToken(deps: Deps, token: string, family: FamilyId = FAMILY): Promise<InviteItem> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: inviteKeys.token(family, tokenHash(token)), ConsistentRead: true }));
  const [invite, client] = Item
    ? await Promise.all([getInviteItem(deps, String(Item.client_id), Number(Item.invite_id), family), getClient(deps, String(Item.client_id))])
    : [];
  if (!invite) throw new DomainError('not-found', 'There is no invite at this address');
  if (!client || client.disabled) throw linkWithdrawn();
  return invite;
}

/** A family with invite operations tells their lifecycle (`booking_invite.*`); one whose invites are internal (life support's) does not. */
export const announcesInvites = (family: FamilyId): boolean => (eventKindsOf(family) as readonly string[]).includes('booking_invite.sent');

/** The part that writes one of the invite's lifecycle events, carrying the invite as the API shows it. */
export async function inviteEventPart(
  deps: Deps,
  type: 'booking_invite.sent' | 'booking_invite.opened' | 'booking_invite.used',
  invite: InviteItem,
): Promise<Part> {
  return part('event', eventPut(deps, { type, family: FAMILY, client_id: invite.client_id, data: await viewOf(deps, invite) }));
}

/** Changes the invite as it was read (condition: `updated_at` unchanged, and `when`), with `others`. */
export async function changeInvite(
  deps: Deps,
  invite: InviteItem,
  changes: Partial<InviteItem>,
  others: (updated: InviteItem) => Promise<Part[]>,
  when?: Condition,
): Promise<InviteItem> {
  const now = deps.clock().toISOString();
  const updated = { ...invite, ...changes, updated_at: now };
  const seen: Condition = { expression: 'updated_at = :seen', values: { ':seen': invite.updated_at } };
  const condition = when ? allOf(seen, when) : seen;
  await transact(deps, [
    part('invite', updateItem(deps, inviteKeys.invite(invite.client_id, inviteFamily(invite), invite.id), { set: { ...changes, updated_at: now } }, condition)),
    ...(await others(updated)),
  ]);
  return updated;
}

/**
 * The e-mail worker handed the invite's message over: `sent_at` and
 * `booking_invite.sent`, once however often the queue delivers it; the status
 * moves queued→sent unless the link was opened (or used) first.
 */
export async function recordInviteSent(deps: Deps, clientId: string, inviteId: number, family: FamilyId = FAMILY): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const invite = await getInviteItem(deps, clientId, inviteId, family);
    if (!invite || invite.sent_at) return false;
    const changes: Partial<InviteItem> = { sent_at: deps.clock().toISOString(), ...(invite.status === 'queued' ? { status: 'sent' as const } : {}) };
    try {
      await changeInvite(deps, invite, changes, async (u) => (announcesInvites(family) ? [await inviteEventPart(deps, 'booking_invite.sent', u)] : []), {
        expression: 'attribute_not_exists(sent_at)',
      });
      return true;
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('invite'))) throw err; // changed since read: read again
    }
  }
  throw new Error(`Invite ${inviteId} kept changing while recording its hand-over`);
}
