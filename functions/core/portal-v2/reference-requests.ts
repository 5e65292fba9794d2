import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { getCandidateItem, candidateName } from './candidates.js';
import { clientKeys, clientNumber, getClient, type ClientAccount } from '../access/clients.js';
import { addSeconds } from '../platform/clock.js';
import { cancellationReasons } from '../platform/conditions.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { candidateInvitation, referenceReminder, refereeInvitation } from '../messaging/email-templates.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId } from '../platform/ids.js';
import type { EventKindOf } from '../events/catalogue.js';
import { emailPut, eventPut } from '../events/outbox.js';
import { decodeCursor, encodeCursor, pageKey, type Page } from '../platform/pagination.js';
import {
  effectiveStatus,
  isOutstanding,
  links,
  loadRequest,
  referenceKeys,
  toReferenceView,
  toRequestView,
  type CollectionMode,
  type RefereeInput,
  type ReferenceItem,
  type RequestItem,
  type RequestStatus,
  type RequestView,
} from './reference-model.js';
import { randomToken } from '../platform/secrets.js';
import { listTemplates } from './templates.js';

/** Reference requests, as an agency sees and changes them (portal API version 2). */

export { MAX_REFEREES } from '../platform/vocabulary.js';
import { MAX_REFEREES } from '../platform/vocabulary.js';
const REMINDER_INTERVAL_SECONDS = 24 * 3600;
const FAMILY = 'portal-v2' as const satisfies FamilyId;

export interface NewReferenceRequest {
  candidate_id: number;
  collection_mode: CollectionMode;
  references_required: number;
  template_id: number;
  expiry_days: number;
  notes?: string;
  referees?: RefereeInput[];
}

type Tx = object[];

export const SELF_REFERENCE_MESSAGE = "A referee must be someone other than the candidate: this is the candidate's own e-mail address";

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Refuses a referee whose e-mail address is the candidate's own, as an error
 * on that referee's e-mail field; `field(i)` names the field of the i-th
 * referee (a JSON pointer for the API, a form field for the candidate's page).
 */
export function refuseSelfReference(candidateEmail: string, referees: Pick<RefereeInput, 'referee_email'>[], field: (index: number) => string): void {
  const index = referees.findIndex((r) => sameAddress(r.referee_email, candidateEmail));
  if (index >= 0) throw fieldRefusal(field(index), SELF_REFERENCE_MESSAGE);
}

export function requestEvent(deps: Deps, type: EventKindOf<'portal-v2'>, request: RequestItem, references: ReferenceItem[]) {
  return eventPut(deps, { type, client_id: request.client_id, family: FAMILY, data: toRequestView(request, references, deps.clock()) });
}

/** New references for referees, each with its form token and its invitation e-mail. */
export async function newReferences(deps: Deps, request: RequestItem, agency: string, referees: RefereeInput[]): Promise<{ items: ReferenceItem[]; tx: Tx }> {
  const now = deps.clock().toISOString();
  const items: ReferenceItem[] = [];
  const tx: Tx = [];
  for (const referee of referees) {
    const id = await nextId(deps, FAMILY, 'reference');
    const item: ReferenceItem = {
      id,
      uuid: randomUUID(),
      reference_request_id: request.id,
      client_id: request.client_id,
      referee_name: referee.referee_name,
      referee_email: referee.referee_email,
      referee_organisation: referee.referee_organisation,
      referee_position: referee.referee_position,
      referee_phone: referee.referee_phone ?? null,
      relationship_to_candidate: referee.relationship_to_candidate ?? null,
      // The invitation goes in the same transaction, so the reference is sent the moment it exists.
      status: 'sent',
      score: null,
      decline_reason: null,
      form_token: randomToken(24),
      answers: null,
      sent_at: now,
      opened_at: null,
      submitted_at: null,
      expires_at: request.expires_at,
      reminder_count: 0,
      last_reminder_sent_at: null,
      created_at: now,
      updated_at: now,
    };
    items.push(item);
    tx.push(
      {
        Put: {
          TableName: deps.table,
          Item: { ...referenceKeys.reference(request.client_id, request.id, id), entity: 'reference', ...item },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: { ...referenceKeys.referencePointer(request.client_id, id), entity: 'reference-pointer', reference_request_id: request.id },
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: { ...referenceKeys.formToken(item.form_token), entity: 'reference-form', client_id: request.client_id, reference_request_id: request.id, reference_id: id },
        },
      },
      emailPut(deps, {
        to: item.referee_email,
        ...refereeInvitation({ refereeName: item.referee_name, candidateName: request.candidate_name, agency, formUrl: links.form(request.public_base, item.form_token), expiresAt: request.expires_at }),
      }),
    );
  }
  return { items, tx };
}

/** The request item's update for a change: conditional on the version read, so concurrent changes retry. */
export function requestUpdate(deps: Deps, before: RequestItem, after: Partial<RequestItem>, closeIndex = false) {
  const now = deps.clock().toISOString();
  const fields = { ...after, updated_at: now, version: before.version + 1 };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': before.version };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:v${i}`] = v;
    return `#f${i} = :v${i}`;
  });
  return {
    Update: {
      TableName: deps.table,
      Key: referenceKeys.request(before.client_id, before.id),
      UpdateExpression: `SET ${sets.join(', ')}${closeIndex ? ' REMOVE gsi1pk, gsi1sk' : ''}`,
      ConditionExpression: 'version = :seen',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

async function requireClient(deps: Deps, clientId: string): Promise<ClientAccount> {
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', `No client ${clientId}`);
  return client;
}

export async function createReferenceRequest(deps: Deps, clientId: string, input: NewReferenceRequest, base: string): Promise<RequestView> {
  const client = await requireClient(deps, clientId);
  if (!client.referenceRequestsEnabled) throw new DomainError('forbidden', 'This account does not include reference requests');
  const [candidate, templates] = await Promise.all([getCandidateItem(deps, clientId, input.candidate_id), listTemplates(deps)]);
  if (!candidate) throw fieldRefusal('/candidate_id', `No candidate ${input.candidate_id}`);
  const template = templates.find((t) => t.id === input.template_id);
  if (!template) throw fieldRefusal('/template_id', `No template ${input.template_id}`);
  const referees = input.referees ?? [];
  if (input.collection_mode === 'client_adds' && referees.length === 0) throw fieldRefusal('/referees', 'Give at least one referee when collection_mode is client_adds');
  if (input.collection_mode === 'candidate_provides' && referees.length > 0) throw fieldRefusal('/referees', 'The candidate provides the referees when collection_mode is candidate_provides');
  refuseSelfReference(candidate.email, referees, (i) => `/referees/${i}/referee_email`);

  const now = deps.clock();
  const id = await nextId(deps, FAMILY, 'reference-request');
  const expiresAt = addSeconds(now, input.expiry_days * 86_400).toISOString();
  const request: RequestItem = {
    id,
    uuid: randomUUID(),
    client_id: clientId,
    candidate_id: candidate.id,
    candidate_name: candidateName(candidate),
    candidate_email: candidate.email,
    template_id: template.id,
    template_name: template.name,
    collection_mode: input.collection_mode,
    status: 'pending',
    references_required: input.references_required,
    references_completed: 0,
    notes: input.notes ?? null,
    expires_at: expiresAt,
    requested_by: await clientNumber(deps, clientId),
    submission_token: input.collection_mode === 'candidate_provides' ? randomToken(24) : null,
    public_base: base,
    version: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const { items, tx } = await newReferences(deps, request, client.name, referees);
  const transaction: Tx = [
    {
      Put: {
        TableName: deps.table,
        Item: { ...referenceKeys.request(clientId, id), ...referenceKeys.open(expiresAt, clientId, id), entity: 'reference-request', ...request },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...tx,
    requestEvent(deps, 'reference_request.created', request, items),
  ];
  if (request.submission_token) {
    transaction.push(
      { Put: { TableName: deps.table, Item: { ...referenceKeys.submissionToken(request.submission_token), entity: 'reference-submit', client_id: clientId, reference_request_id: id } } },
      emailPut(deps, {
        to: candidate.email,
        ...candidateInvitation({ candidateName: request.candidate_name, agency: client.name, submissionUrl: links.submission(base, request.submission_token), required: request.references_required, expiresAt }),
      }),
    );
  }
  await deps.db.send(new TransactWriteCommand({ TransactItems: transaction as never }));
  return toRequestView(request, items, now);
}

async function requireRequest(deps: Deps, clientId: string, id: number) {
  const loaded = await loadRequest(deps, clientId, id);
  if (!loaded) throw new DomainError('not-found', `No reference request ${id}`);
  return loaded;
}

function requireOpen(request: RequestItem, now: Date) {
  const status = effectiveStatus(request, now);
  if (status === 'cancelled' || status === 'expired') throw new DomainError('invalid-state', `Reference request ${request.id} is ${status}`);
}

export async function getReferenceRequest(deps: Deps, clientId: string, id: number): Promise<RequestView> {
  const { request, references } = await requireRequest(deps, clientId, id);
  return toRequestView(request, references, deps.clock());
}

export interface RequestFilter {
  status?: RequestStatus;
  candidate_id?: number;
  limit: number;
  cursor?: string;
}

/** The client's requests, newest first, with their references. */
export async function listReferenceRequests(deps: Deps, clientId: string, filter: RequestFilter): Promise<Page<RequestView>> {
  const pk = clientKeys.partition(clientId);
  const now = deps.clock();
  const scope = { pk, prefix: referenceKeys.requestPrefix };
  const data: RequestView[] = [];
  let cursor = await decodeCursor(deps, scope, filter.cursor);
  // A filter can leave a page short: read on until the page is full.
  do {
    const page = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: filter.candidate_id !== undefined ? 'candidate_id = :candidate' : undefined,
        ExpressionAttributeValues: {
          ':pk': pk,
          ':prefix': referenceKeys.requestPrefix,
          ...(filter.candidate_id !== undefined ? { ':candidate': filter.candidate_id } : {}),
        },
        ScanIndexForward: false,
        Limit: 50,
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    for (const item of (page.Items ?? []) as RequestItem[]) {
      if (data.length === filter.limit) break;
      if (filter.status && effectiveStatus(item, now) !== filter.status) continue;
      const loaded = await loadRequest(deps, clientId, item.id);
      if (loaded) data.push(toRequestView(loaded.request, loaded.references, now));
      cursor = { pk, sk: referenceKeys.request(clientId, item.id).sk };
    }
    if (data.length < filter.limit) cursor = pageKey(page.LastEvaluatedKey);
  } while (cursor && data.length < filter.limit);
  return { data, next_cursor: data.length === filter.limit ? await encodeCursor(deps, scope, cursor) : null };
}

/** Cancels a request: outstanding references are cancelled and their links stop working. */
export async function cancelReferenceRequest(deps: Deps, clientId: string, id: number): Promise<RequestView> {
  return retryOnConflict(async () => {
    const { request, references } = await requireRequest(deps, clientId, id);
    const now = deps.clock();
    requireOpen(request, now);
    const at = now.toISOString();
    const after: RequestItem = { ...request, status: 'cancelled', updated_at: at, version: request.version + 1 };
    const refs = references.map((r) => (isOutstanding(r.status) ? { ...r, status: 'cancelled' as const, updated_at: at } : r));
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          requestUpdate(deps, request, { status: 'cancelled' }, true),
          ...references
            .filter((r) => isOutstanding(r.status))
            .map((r) => ({
              Update: {
                TableName: deps.table,
                Key: referenceKeys.reference(clientId, id, r.id),
                UpdateExpression: 'SET #status = :cancelled, updated_at = :now',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':cancelled': 'cancelled', ':now': at },
              },
            })),
          requestEvent(deps, 'reference_request.cancelled', after, refs),
        ] as never,
      }),
    );
    return toRequestView(after, refs, now);
  });
}

/** Adds a referee to an open request; they are e-mailed at once. */
export async function addReferee(deps: Deps, clientId: string, id: number, referee: RefereeInput): Promise<RequestView> {
  const client = await requireClient(deps, clientId);
  return retryOnConflict(async () => {
    const { request, references } = await requireRequest(deps, clientId, id);
    const now = deps.clock();
    requireOpen(request, now);
    if (references.length >= MAX_REFEREES) throw new DomainError('invalid-state', `A request has at most ${MAX_REFEREES} referees`);
    refuseSelfReference(request.candidate_email, [referee], () => '/referee_email');
    const { items, tx } = await newReferences(deps, request, client.name, [referee]);
    await deps.db.send(new TransactWriteCommand({ TransactItems: [requestUpdate(deps, request, {}), ...tx] as never }));
    return toRequestView({ ...request, version: request.version + 1, updated_at: now.toISOString() }, [...references, ...items], now);
  });
}

/** Reminds referees who have not answered, at most once per referee per 24 hours. */
export async function sendReminders(deps: Deps, clientId: string, id: number): Promise<{ request: RequestView; reminders_sent: number }> {
  const client = await requireClient(deps, clientId);
  const { request, references } = await requireRequest(deps, clientId, id);
  const now = deps.clock();
  requireOpen(request, now);
  const cutoff = addSeconds(now, -REMINDER_INTERVAL_SECONDS).toISOString();
  const due = references.filter(
    (r) => (r.status === 'sent' || r.status === 'opened') && (r.last_reminder_sent_at ?? r.sent_at ?? '') <= cutoff,
  );
  const at = now.toISOString();
  let sent = 0;
  for (const r of due) {
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: deps.table,
                Key: referenceKeys.reference(clientId, id, r.id),
                UpdateExpression: 'SET reminder_count = reminder_count + :one, last_reminder_sent_at = :now, updated_at = :now',
                // A concurrent reminder run must not remind twice.
                ConditionExpression: r.last_reminder_sent_at ? 'last_reminder_sent_at = :seen' : 'attribute_not_exists(last_reminder_sent_at) OR last_reminder_sent_at = :null',
                ExpressionAttributeValues: { ':one': 1, ':now': at, ...(r.last_reminder_sent_at ? { ':seen': r.last_reminder_sent_at } : { ':null': null }) },
              },
            },
            emailPut(deps, {
              to: r.referee_email,
              ...referenceReminder({ refereeName: r.referee_name, candidateName: request.candidate_name, agency: client.name, formUrl: links.form(request.public_base, r.form_token), expiresAt: r.expires_at }),
            }),
          ] as never,
        }),
      );
      sent++;
    } catch (err) {
      if (!cancellationReasons(err)) throw err;
    }
  }
  const loaded = await requireRequest(deps, clientId, id);
  return { request: toRequestView(loaded.request, loaded.references, now), reminders_sent: sent };
}

/** A reference of the caller's, with the request it belongs to. Another client's has no pointer here: not-found. */
export async function findReference(deps: Deps, clientId: string, referenceId: number) {
  const { Item: pointer } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: referenceKeys.referencePointer(clientId, referenceId), ConsistentRead: true }),
  );
  if (!pointer) throw new DomainError('not-found', `No reference ${referenceId}`);
  const { request, references } = await requireRequest(deps, clientId, Number(pointer.reference_request_id));
  const reference = references.find((r) => r.id === referenceId)!;
  return { request, reference };
}

export async function getReference(deps: Deps, clientId: string, referenceId: number) {
  const { request, reference } = await findReference(deps, clientId, referenceId);
  return { ...toReferenceView(reference, request, deps.clock()), answers: reference.answers };
}

/**
 * Closes requests whose time is up: open references expire; a request not yet
 * complete becomes expired. Returns how many requests became expired. Reads
 * already treat them as expired by the clock; this makes it so in the table,
 * closes the links and tells the agency.
 */
export async function expireDueRequests(deps: Deps): Promise<number> {
  let total = 0;
  // Each pass removes what it handled from the index; a bounded number of passes keeps a bad item from looping.
  for (let pass = 0; pass < 20; pass++) {
    const { expired, handled } = await expireOnePage(deps);
    total += expired;
    if (handled < 100) break;
  }
  return total;
}

async function expireOnePage(deps: Deps): Promise<{ expired: number; handled: number }> {
  const now = deps.clock();
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      // Sort keys are `<expires_at>#<client>#<id>`: '~' sorts after '#', so this takes everything due by now, inclusive.
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :bound',
      ExpressionAttributeValues: { ':pk': referenceKeys.openPartition, ':bound': `${now.toISOString()}~` },
      Limit: 100,
    }),
  );
  let expired = 0;
  for (const hit of Items as RequestItem[]) {
    await retryOnConflict(async () => {
      const loaded = await loadRequest(deps, hit.client_id, hit.id);
      if (!loaded || loaded.request.status === 'cancelled' || loaded.request.status === 'expired') return;
      const { request, references } = loaded;
      const at = now.toISOString();
      const becomesExpired = request.status === 'pending' || request.status === 'in_progress';
      const after: RequestItem = { ...request, status: becomesExpired ? 'expired' : request.status, updated_at: at, version: request.version + 1 };
      const refs = references.map((r) => (isOutstanding(r.status) ? { ...r, status: 'expired' as const, updated_at: at } : r));
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            requestUpdate(deps, request, { status: after.status }, true),
            ...references
              .filter((r) => isOutstanding(r.status))
              .map((r) => ({
                Update: {
                  TableName: deps.table,
                  Key: referenceKeys.reference(request.client_id, request.id, r.id),
                  UpdateExpression: 'SET #status = :expired, updated_at = :now',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: { ':expired': 'expired', ':now': at },
                },
              })),
            ...(becomesExpired ? [requestEvent(deps, 'reference_request.expired', after, refs)] : []),
          ] as never,
        }),
      );
      if (becomesExpired) expired++;
    });
  }
  return { expired, handled: Items.length };
}

