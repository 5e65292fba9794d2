import { getClient } from '../access/clients.js';
import { scannerNamed } from '../documents/scanner.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { wallClock } from '../platform/time.js';
import { transact } from '../platform/transact.js';
import { readFields } from '../requests/fields.js';
import type { ActorMode, GroupItem, GroupRequest, ItemType } from '../requests/group.js';
import { effectiveItemStatus, effectiveStatus } from '../requests/status.js';
import { itemChange, itemStatusIs, requestChange, requireRequest } from '../requests/store.js';
import { retryOnConflict } from '../platform/db.js';
import type { GroupEngineKind } from '../requests/group-kind.js';
import { checkUploadedFile, deleteRequestFile, keepUploadedFile, uploadFormFor } from './request-files.js';
import { groupKindOf } from './group-engine.js';
import { declarationByKind } from './groups/index.js';
import { changeItem } from './request-items.js';
import { followRequestLink, type RequestLinkTarget } from './request-links.js';

/**
 * The public pages of request groups (no JavaScript, no bearer): the
 * candidate's page (`/request-submit/{token}`) and a third party's form
 * (`/request-form/{token}`). Uploading actors post an item's fields, then
 * its file straight to the bucket; issuers and appraisers confirm or deny.
 */

export type PageKind = 'submission' | 'form';

export interface PageItem {
  item: GroupItem;
  type: ItemType;
  status: string;
  /** The fields are in and the file is next (upload form attached). */
  upload?: Awaited<ReturnType<typeof uploadFormFor>>;
}

export interface RequestPage {
  kind: GroupEngineKind;
  request: GroupRequest;
  agency: string;
  actor: ActorMode;
  /** Cancelled, expired, or nothing left to do: the page says so. */
  closed: string | null;
  items: PageItem[];
}

const UPLOADING: readonly ActorMode[] = ['candidate_upload', 'provider_form'];

/**
 * The engine kind of a group whose items have portal pages. A booking
 * kind's items have none (they are answered on their course family's
 * invite page, booking-kinds.ts), so the pages leave out the booking kinds
 * and what closing one takes (invites, seat holds).
 */
const pageKindOf = (name: string): GroupEngineKind | undefined => {
  const decl = declarationByKind(name);
  return decl && !decl.bookingFamily ? groupKindOf(decl) : undefined;
};

async function loadPage(deps: Deps, token: string, page: PageKind): Promise<{ target: RequestLinkTarget; kind: GroupEngineKind }> {
  const target = await followRequestLink(deps, token);
  // Each page takes only its own links: the candidate's on the submission page, third parties' on the form.
  if ((page === 'submission') !== (target.actor === 'candidate_upload'))
    throw new DomainError('not-found', 'This link is not valid. Check that you copied all of it.');
  const kind = pageKindOf(target.kind);
  if (!kind) throw new DomainError('not-found', 'This link is not valid.');
  return { target, kind };
}

const mine = (target: RequestLinkTarget) => (item: GroupItem) =>
  item.actor.mode === target.actor && (target.actor === 'candidate_upload' || item.actor.email.toLowerCase() === target.email?.toLowerCase());

/** The page's request and this actor's items, as they stand now. */
export async function requestPage(deps: Deps, token: string, page: PageKind, draftFor?: number): Promise<RequestPage> {
  const { target, kind } = await loadPage(deps, token, page);
  const { request, items } = await requireRequest(deps, kind, target.client_id, target.request_id);
  const now = deps.clock();
  const client = await getClient(deps, target.client_id);
  const status = effectiveStatus(request, now);
  const own = items.filter(mine(target));
  const pageItems: PageItem[] = [];
  for (const item of own) {
    const itemStatus = effectiveItemStatus(item, request, kind.outstanding, now);
    const type = kind.declaration.itemType(item.type);
    const waitingForFile = type.file && item.data !== null && ['requested', 'sent', 'opened', 'rejected'].includes(item.status) && item.id === draftFor;
    pageItems.push({ item, type, status: itemStatus, upload: waitingForFile ? await uploadFormFor(deps, request, item, token, page) : undefined });
  }
  const closed = status === 'cancelled' || status === 'expired' ? status : null;
  return { kind, request, agency: client?.name ?? '', actor: target.actor, closed, items: pageItems };
}

/** A third party opening their form: their sent items become opened (once), and the request is in progress. */
export async function markOpened(deps: Deps, token: string): Promise<void> {
  const { target, kind } = await loadPage(deps, token, 'form');
  await retryOnConflict(async () => {
    const { request, items } = await requireRequest(deps, kind, target.client_id, target.request_id);
    const sent = items.filter(mine(target)).filter((i) => i.status === 'sent');
    if (sent.length === 0 || effectiveStatus(request, deps.clock()) !== request.status) return;
    const at = deps.clock().toISOString();
    const { part } = requestChange(deps, kind, request, request.status === 'pending' ? { status: 'in_progress' } : {});
    await transact(deps, [
      part,
      ...sent.map((i) => itemChange(deps, kind, request, i, { status: 'opened', opened_at: at, updated_at: at }, itemStatusIs('sent'))),
    ]);
  });
}

const today = (deps: Deps) => wallClock(deps.clock(), deps.config.serviceTimeZone).date;

export class FieldErrors extends Error {
  constructor(readonly errors: Record<string, string>) {
    super('invalid fields');
  }
}

async function ownItem(deps: Deps, token: string, page: PageKind, itemId: number) {
  const p = await requestPage(deps, token, page);
  if (p.closed) throw new DomainError('invalid-state', `This request is ${p.closed}.`);
  const found = p.items.find((i) => i.item.id === itemId);
  if (!found) throw new DomainError('not-found', 'There is no such item on this page.');
  return { p, found };
}

/**
 * Step one: an item's fields. Items with a file keep the fields and wait for
 * it (step two); an item without one is submitted now. A confirmation form
 * (issuer, appraiser) confirms, or denies with a reason.
 */
export async function submitItemFields(
  deps: Deps,
  token: string,
  page: PageKind,
  itemId: number,
  form: Record<string, string>,
): Promise<{ awaitingFile: boolean }> {
  const { p, found } = await ownItem(deps, token, page, itemId);
  const decl = p.kind.declaration;
  const read = readFields(found.type.fields, form, today(deps));
  if ('errors' in read) throw new FieldErrors(read.errors);
  const refused = decl.refuse?.(found.item.type, read.data, today(deps));
  if (refused) throw new FieldErrors(refused);
  const data = { ...(found.item.data ?? {}), ...read.data };
  const load = () => requireRequest(deps, p.kind, p.request.client_id, p.request.id);
  if (!UPLOADING.includes(p.actor)) {
    const deny = form.decision === 'deny';
    const reason = (form.reason ?? '').trim();
    if (deny && (reason.length < 1 || reason.length > 500)) throw new FieldErrors({ reason: 'Say why, in 1 to 500 characters' });
    const at = deps.clock().toISOString();
    await changeItem(deps, p.kind, load, itemId, ['sent', 'opened'], () => ({
      set: { status: deny ? 'denied' : 'confirmed', data: deny ? { ...data, reason } : data, submitted_at: at },
      event: deny ? 'denied' : 'confirmed',
    }));
    return { awaitingFile: false };
  }
  if (!['requested', 'sent', 'opened', 'rejected'].includes(found.item.status)) throw new DomainError('invalid-state', 'This item was already sent.');
  await retryOnConflict(async () => {
    const { request, items } = await load();
    const item = items.find((i) => i.id === itemId)!;
    const { part } = requestChange(deps, p.kind, request, {});
    await transact(deps, [part, itemChange(deps, p.kind, request, item, { data, updated_at: deps.clock().toISOString() }, itemStatusIs(item.status))]);
  });
  return { awaitingFile: found.type.file };
}

/**
 * Step two's return from the bucket: the file is checked and attached, and
 * the item is submitted for review (replacing an earlier file). Returns the
 * item id it went to.
 */
export async function attachUploadedFile(deps: Deps, token: string, page: PageKind, key: string): Promise<number> {
  const p = await requestPage(deps, token, page);
  if (p.closed) throw new DomainError('invalid-state', `This request is ${p.closed}.`);
  const itemId = Number(/\/(\d+)\/[0-9a-f-]{36}$/.exec(key)?.[1]);
  const found = p.items.find((i) => i.item.id === itemId);
  if (!found || !found.type.file || found.item.data === null)
    throw new DomainError('invalid-state', 'This upload is not for an item on this page. Please upload the file again.');
  const checked = await checkUploadedFile(p.request, found.item, key, scannerNamed(deps.config.fileScanner));
  const decl = p.kind.declaration;
  const at = deps.clock().toISOString();
  const earlier = found.item.file?.key;
  const { upload_key: _upload, ...file } = checked;
  await keepUploadedFile(
    checked,
    () =>
      changeItem(
        deps,
        p.kind,
        () => requireRequest(deps, p.kind, p.request.client_id, p.request.id),
        itemId,
        ['requested', 'sent', 'opened', 'rejected'],
        (request, item, items) => ({
          set: {
            status: 'submitted',
            file: { ...file, uploaded_at: at, purged_at: null },
            submitted_at: at,
            rejection_reason: null,
            valid_until: decl.validUntil?.(item) ?? null,
          },
          event: 'submitted',
          // A follow-up item is added once (a resubmitted appraisal does not ask the appraiser twice).
          follow: (decl.follow?.({ ...item }, request) ?? []).filter((plan) => !items.some((i) => i.type === plan.type)),
        }),
      ),
    async () => (await requireRequest(deps, p.kind, p.request.client_id, p.request.id)).items.some((i) => i.id === itemId && i.file?.key === file.key),
  );
  if (earlier && earlier !== file.key) await deleteRequestFile(earlier).catch(() => undefined);
  return itemId;
}
