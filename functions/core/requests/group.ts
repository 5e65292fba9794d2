import type { FamilyId } from '../platform/families.js';
import type { ITEM_STATUSES } from '../platform/request-vocabulary.js';
import type { FieldSpec } from './fields.js';
import type { RequestStatus, StoredItem, StoredRequest } from './shapes.js';

/**
 * A request group: a kind of the
 * request engine declared as data. The declaration says what a kind asks
 * for (create fields, item types and their fields), who answers each item
 * (actor mode), when the request is complete, its labels, whether items are
 * reviewed, whom a reminder goes to, its PDF layout, the entitlement it
 * needs and how long its data is kept. Everything else (stored shapes,
 * statuses, views, events, pages, reminders, expiry) is the engine's.
 */

/**
 * How an item's actor answers: the candidate uploads evidence, a third party
 * fills in a form, or confirms or denies; or the candidate books a course
 * through a booking invite of a booking family.
 */
export type ActorMode = 'candidate_upload' | 'provider_form' | 'issuer_form' | 'appraiser_form' | 'booking_invite';

export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Still waiting for the actor (or a review): closed by cancel and expiry. */
export const OUTSTANDING_ITEM_STATUSES: readonly ItemStatus[] = ['requested', 'sent', 'opened', 'submitted', 'rejected', 'booked'];
/** A reminder goes to the actor of these: they owe the next step (a submitted item waits for the agency). */
export const REMINDABLE_ITEM_STATUSES: readonly ItemStatus[] = ['requested', 'sent', 'opened', 'rejected'];
export const FINAL_POSITIVE: readonly ItemStatus[] = ['accepted', 'confirmed', 'certified'];
export const FINAL_NEGATIVE: readonly ItemStatus[] = ['denied'];

export const ITEM_LABELS: Record<ItemStatus, string> = {
  requested: 'Requested',
  sent: 'Sent',
  opened: 'Opened',
  submitted: 'Submitted',
  accepted: 'Accepted',
  rejected: 'Rejected',
  confirmed: 'Confirmed',
  denied: 'Denied',
  booked: 'Booked',
  certified: 'Certified',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

export interface Actor {
  mode: ActorMode;
  name: string;
  email: string;
}

export interface StoredFile {
  key: string;
  name: string;
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  size: number;
  sha256: string;
  uploaded_at: string;
  /** From the scanner adapter (FILE_SCANNER): `not_scanned` with the default `none`. */
  scan_status: AttachedScanStatus;
  purged_at: string | null;
}

/** What an attached file's scan said: an infected file is refused, never attached. */
export type AttachedScanStatus = 'not_scanned' | 'clean';

export interface GroupRequest extends StoredRequest {
  kind: string;
  candidate_name: string;
  candidate_email: string;
  template_id: number | null;
  template_name: string | null;
  outcome: 'satisfied' | 'not_satisfied' | null;
  notes: string | null;
  requested_by: number;
  /** The candidate's page; its link item is keyed by the token's SHA-256. */
  submission_token: string | null;
  details: Record<string, unknown>;
  closed_at?: string | null;
}

export interface GroupItem extends StoredItem {
  request_id: number;
  kind: string;
  type: string;
  status: ItemStatus;
  actor: Actor;
  data: Record<string, unknown> | null;
  file: StoredFile | null;
  /** A third party's form (issuer, appraiser, OH provider). */
  form_token: string | null;
  booking_invite_id: number | null;
  booking_id: number | null;
  valid_until: string | null;
  rejection_reason: string | null;
  submitted_at: string | null;
  reviewed_at: string | null;
  /** The team user who reviewed it (`Acting-User`), or null: the account itself. */
  reviewed_by: number | null;
  opened_at: string | null;
}

/** An item a create (or a submission) asks for. */
export interface ItemPlan {
  type: string;
  actor: Actor;
  /** Data known at create (a training verification's certificate); the actor adds the rest. */
  data?: Record<string, unknown>;
}

export interface ItemType {
  label: string;
  /** What the actor fills in on the page (files go in a second step when `file`). */
  fields: readonly FieldSpec[];
  file: boolean;
}

/** Files and data kept from the request's close (defaults are a product decision). */
export interface Retention {
  fileDays: number;
  dataDays: number;
}

export interface GroupDeclaration<Kind extends string = string> {
  /** The kind name in events and views (`training`); its path segment follows from it (`training-requests`). */
  kind: Kind;
  title: string;
  /** Status labels (the request's own words per kind). */
  labels: Record<RequestStatus, string>;
  /** The kind's item types by `type`; a kind with open types (certificate kinds) maps each. */
  itemType(type: string): ItemType;
  /** The items a create asks for, from the kind's create fields. */
  plan(details: Record<string, unknown>, candidate: { name: string; email: string }): ItemPlan[];
  /** Who reviews a submitted item: the agency (accept/reject), or nobody (a form answer is final). */
  reviewed: boolean;
  /** Extra items an accepted or submitted item brings (appraisal: the appraiser's confirmation). */
  follow?(item: GroupItem, request: GroupRequest): ItemPlan[];
  /** Whether the answer makes the request unsatisfied (OH clearance not_fit). */
  unsatisfying?(item: GroupItem): boolean;
  /** An item's validity from its data (training: completed_on plus the subject's refresher months). */
  validUntil?(item: Pick<GroupItem, 'type' | 'data'>): string | null;
  /** A refusal of the create fields that needs today's date (training verification: a completion in the future); 422 at `pointer`. */
  refuseCreate?(details: Record<string, unknown>, today: string): { pointer: string; detail: string } | undefined;
  /** A refusal of the data as a whole, by field (training: a lapsed course). */
  refuse?(type: string, data: Record<string, unknown>, today: string): Record<string, string> | undefined;
  /**
   * A booking kind: its item is a booking invite of this family (decision
   * 11). The family's invite e-mail is the only e-mail: no candidate page, no
   * reminders; the item follows the invite and the booking made with it.
   */
  bookingFamily?: FamilyId;
  /** The account flag the kind needs (403 without); undefined: every account. */
  entitlement?: string;
  /** Health data: no item data or files in lists, webhooks, e-mails or logs. */
  special_category?: boolean;
  retention: Retention;
  /** An item's lines in the PDF summary: the first names the item (the PDF's and the candidate page's heading for it), then its data. */
  pdfLines(item: GroupItem): string[];
}

/** Design 1.3 rule 6: every outstanding item is booked, so the request waits for the bookings instead of expiring. */
export const waitsForBookings = (items: Pick<GroupItem, 'status'>[]): boolean => {
  const open = items.filter((i) => OUTSTANDING_ITEM_STATUSES.includes(i.status));
  return open.length > 0 && open.every((i) => i.status === 'booked');
};

const isFinal = (s: ItemStatus) => FINAL_POSITIVE.includes(s) || FINAL_NEGATIVE.includes(s);

/**
 * A request's status and outcome from its items (section 1.1): completed
 * when every item is final, awaiting review when every outstanding item is
 * submitted, in progress once anything came back, else pending.
 */
export function derivedGroupStatus(
  decl: Pick<GroupDeclaration, 'unsatisfying'>,
  items: Pick<GroupItem, 'status' | 'data' | 'type'>[],
): { status: RequestStatus; outcome: GroupRequest['outcome'] } {
  const live = items.filter((i) => i.status !== 'cancelled' && i.status !== 'expired');
  if (live.length > 0 && live.every((i) => isFinal(i.status))) {
    const bad = live.some((i) => FINAL_NEGATIVE.includes(i.status) || decl.unsatisfying?.(i as GroupItem));
    return { status: 'completed', outcome: bad ? 'not_satisfied' : 'satisfied' };
  }
  const open = live.filter((i) => !isFinal(i.status));
  if (open.length > 0 && open.every((i) => i.status === 'submitted')) return { status: 'awaiting_review', outcome: null };
  const started = live.some((i) => !['requested', 'sent'].includes(i.status));
  return { status: started ? 'in_progress' : 'pending', outcome: null };
}

export const STANDARD_LABELS: Record<RequestStatus, string> = {
  pending: 'Awaiting candidate',
  in_progress: 'In Progress',
  awaiting_review: 'Awaiting Review',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
};
