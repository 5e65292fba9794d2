import { clientKeys } from '../access/clients.js';
import type { EventKindOf } from '../events/kinds.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import {
  ITEM_LABELS,
  OUTSTANDING_ITEM_STATUSES,
  REMINDABLE_ITEM_STATUSES,
  type GroupDeclaration,
  type GroupItem,
  type GroupRequest,
  type ItemStatus,
} from './group.js';
import type { EmailMessage } from '../events/outbox.js';
import type { RequestKind } from './kind.js';
import { effectiveItemStatus, effectiveStatus, isExpired } from './status.js';

/** What the engine derives from the declaration: keys, link targets, the reminder mail. */
export type GroupKeys = RequestKind<'portal-v2', GroupRequest, GroupItem, unknown>['keys'];

export type ReminderMail = (input: { request: GroupRequest; item: GroupItem; agency: string }) => Omit<EmailMessage, 'id'>;

/** A declared request group as a kind of the engine: keys, views and events derived from the declaration. */

const CLIENT = TABLE_KEYS.client;
const OPEN = GSI1_KEYS.openGroupRequests;
const PURGE = GSI1_KEYS.groupPurge;

/** Closed requests by when their retention next ends (files first, then data): the purge schedule reads it. */
export const purgeIndex = (kind: string, due: string, clientId: string, id: number) => ({
  gsi1pk: key(PURGE.pk, kind),
  gsi1sk: key(PURGE.sk.due, due, clientId, id),
});
export const purgePartition = (kind: string) => key(PURGE.pk, kind);
export const retentionEnds = (closedAt: string, days: number): string => new Date(Date.parse(closedAt) + days * 86_400_000).toISOString();

export function groupKeys(kind: string): GroupKeys {
  return {
    request: (clientId, id) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.groupRequest, kind, padId(id)) }),
    requestPrefix: key(CLIENT.sk.groupRequest, kind, ''),
    item: (clientId, requestId, id) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.groupItem, kind, padId(requestId), padId(id)) }),
    itemsOf: (requestId) => key(CLIENT.sk.groupItem, kind, padId(requestId), ''),
    itemPointer: (clientId, id) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.groupItemPointer, kind, padId(id)) }),
    openPartition: key(OPEN.pk, kind),
    open: (expiresAt, clientId, id) => ({ gsi1pk: key(OPEN.pk, kind), gsi1sk: key(OPEN.sk.open, expiresAt, clientId, id) }),
  };
}

export interface GroupLinks {
  submission: (base: string, token: string) => string;
  form: (base: string, token: string) => string;
}

/** Views leave out a health kind's item data and files where section 1.5 says so (lists, webhooks). */
export type Disclosure = 'full' | 'outcomes';

export function toItemView(decl: GroupDeclaration, links: GroupLinks, item: GroupItem, request: GroupRequest, now: Date, disclosure: Disclosure = 'full') {
  const status = effectiveItemStatus<ItemStatus>(item, request, OUTSTANDING_ITEM_STATUSES, now);
  const hidden = disclosure === 'outcomes' && decl.special_category;
  const file =
    item.file && !hidden
      ? {
          name: item.file.name,
          content_type: item.file.content_type,
          size: item.file.size,
          sha256: item.file.sha256,
          uploaded_at: item.file.uploaded_at,
          scan_status: item.file.scan_status,
          purged_at: item.file.purged_at,
        }
      : null;
  return {
    id: item.id,
    uuid: item.uuid,
    request_id: item.request_id,
    kind: item.kind,
    type: item.type,
    status,
    status_label: ITEM_LABELS[status],
    actor: item.actor,
    data: hidden ? null : item.data,
    file,
    form_url: item.form_token && OUTSTANDING_ITEM_STATUSES.includes(status) ? links.form(request.public_base, item.form_token) : null,
    booking_invite_id: item.booking_invite_id,
    booking_id: item.booking_id,
    valid_until: item.valid_until,
    rejection_reason: item.rejection_reason,
    submitted_at: item.submitted_at,
    reviewed_at: item.reviewed_at,
    reviewed_by: item.reviewed_by,
    reminder_count: item.reminder_count,
    last_reminder_sent_at: item.last_reminder_sent_at,
    expires_at: item.expires_at,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

export function toGroupView(decl: GroupDeclaration, links: GroupLinks, r: GroupRequest, items: GroupItem[], now: Date, disclosure: Disclosure = 'full') {
  const status = effectiveStatus(r, now);
  const live = items.filter((i) => i.status !== 'cancelled' && i.status !== 'expired');
  return {
    id: r.id,
    uuid: r.uuid,
    kind: r.kind,
    candidate_id: r.candidate_id,
    candidate_name: r.candidate_name,
    candidate_email: r.candidate_email,
    template_id: r.template_id,
    template_name: r.template_name,
    status,
    status_label: decl.labels[status],
    outcome: r.outcome,
    items_required: status === 'cancelled' || status === 'expired' ? items.length : live.length,
    items_completed: items.filter((i) => ['accepted', 'confirmed', 'certified', 'denied'].includes(i.status)).length,
    is_complete: r.status === 'completed',
    notes: r.notes,
    expires_at: r.expires_at,
    is_expired: isExpired(r, now) && !r.waiting_for_bookings,
    requested_by: r.requested_by,
    submission_url:
      r.submission_token && (status === 'pending' || status === 'in_progress' || status === 'awaiting_review')
        ? links.submission(r.public_base, r.submission_token)
        : null,
    details: r.details,
    items: items.map((i) => toItemView(decl, links, i, r, now, disclosure)),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
export type GroupRequestView = ReturnType<typeof toGroupView>;

export type GroupEngineKind = RequestKind<'portal-v2', GroupRequest, GroupItem, GroupRequestView> & { declaration: GroupDeclaration; links: GroupLinks };

/** The engine kind of a declaration; its events are `<kind>_request.*` in the portal's catalogue. */
export function groupEngineKind(decl: GroupDeclaration, links: GroupLinks, reminderEmail: ReminderMail): GroupEngineKind {
  const event = (what: string) => `${decl.kind}_request.${what}` as EventKindOf<'portal-v2'>;
  return {
    declaration: decl,
    links,
    family: 'portal-v2' satisfies FamilyId,
    entities: { request: `${decl.kind}-request`, item: `${decl.kind}-request-item`, pointer: `${decl.kind}-request-item-pointer` },
    fields: { requestId: 'request_id' },
    counters: { request: `${decl.kind}-request`, item: `${decl.kind}-request-item` },
    keys: groupKeys(decl.kind),
    outstanding: OUTSTANDING_ITEM_STATUSES,
    remindable: REMINDABLE_ITEM_STATUSES,
    events: { created: event('created'), completed: event('completed'), cancelled: event('cancelled'), expired: event('expired') },
    // Closed: kept for the kind's retention, then purged.
    onClose: (request, at) => ({
      closed_at: at,
      ...purgeIndex(decl.kind, retentionEnds(at, Math.min(decl.retention.fileDays, decl.retention.dataDays)), request.client_id, request.id),
    }),
    // Events carry what a list shows: a health kind's item data stays out of webhooks (receivers GET the request).
    view: (request, items, now) => toGroupView(decl, links, request, items, now, 'outcomes'),
    reminderEmail,
    texts: {
      noRequest: (id) => `No ${decl.title.toLowerCase()} ${id}`,
      noItem: (id) => `No item ${id} on this request`,
      closed: (id, status) => `${decl.title} ${id} is ${status}`,
    },
  };
}
