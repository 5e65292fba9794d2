import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { A4, TextDocument } from '../documents/pdf-text.js';
import { canonicalJson } from '../platform/canonical-json.js';
import { queryAll, queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { formatWithOffset, wallClock } from '../platform/time.js';
import { part, putItem, type Part } from '../platform/transact.js';
import { retentionFields } from './evidence-retention.js';
import { retained } from '../platform/clock.js';
import { evidenceObjectKey, evidenceStore } from './evidence-store.js';
import { MONITORING_FAMILY as FAMILY } from './registers.js';
import type { VerificationItem } from './verifications.js';
import type { WorkerItem } from './workers.js';

/**
 * Evidence: each completed check's record as canonical
 * JSON (RFC 8785), hashed with SHA-256, each record naming the hash of the
 * worker's record before it. The bytes go to the write-once store
 * (evidence-store.ts) before the check's transaction, which writes the
 * record's item (its hash and where its bytes are) and moves the worker's
 * chain head (`evidence_head`, `evidence_seq`) in the same write, conditioned
 * on the worker as read: no forks. Every read of the bytes (downloads,
 * `ops registration-monitoring evidence verify`) re-hashes them against the item first.
 */

export interface EvidenceItem {
  id: number;
  client_id: string;
  worker_id: number;
  verification_id: number;
  seq: number;
  size_bytes: number;
  captured_at: string;
  retention_until: string;
  simulated: boolean;
  source: VerificationItem['source'];
  sha256: string;
  prev_sha256: string | null;
  /** Where the canonical JSON is, exactly as hashed and served (evidence-store.ts). */
  object_key: string;
}

const CLIENT = TABLE_KEYS.client;
export const evidenceKeys = {
  evidence: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.evidence, FAMILY, padId(id)) }),
  prefix: () => familyPrefix(CLIENT.sk.evidence, FAMILY),
};

export const sha256Of = (body: string | Buffer): string => createHash('sha256').update(body).digest('hex');

/** The record of a completed check, the next link of the worker's chain: its item part, and the head the worker moves to. */
export function evidenceFor(
  deps: Deps,
  worker: WorkerItem,
  v: VerificationItem,
): { part: Part; head: { evidence_head: string; evidence_seq: number }; object: { key: string; body: Buffer; retainUntil: Date } } {
  const seq = (worker.evidence_seq ?? 0) + 1;
  const prev = worker.evidence_head ?? null;
  const body = canonicalJson({
    evidence_id: v.id,
    verification_id: v.id,
    worker_id: worker.id,
    seq,
    prev_sha256: prev,
    captured_at: v.checked_at,
    simulated: v.simulated,
    query: { register: worker.registration.register, number: worker.registration.number, first_name: worker.first_name, last_name: worker.last_name },
    adapter: v.source,
    raw: v.raw,
    result: v.result,
    outcome: v.outcome,
    reasons: v.reasons,
    trigger: v.trigger,
    actor: v.requested_by,
  });
  const retention = retentionFields(deps, v.checked_at);
  const sha256 = sha256Of(body);
  const item: EvidenceItem = {
    id: v.id,
    client_id: worker.client_id,
    worker_id: worker.id,
    verification_id: v.id,
    seq,
    size_bytes: Buffer.byteLength(body),
    captured_at: v.checked_at,
    retention_until: retention.retention_until,
    simulated: v.simulated,
    source: v.source,
    sha256,
    prev_sha256: prev,
    object_key: evidenceObjectKey(worker.client_id, v.id, sha256),
  };
  return {
    part: part(
      'evidence',
      putItem(
        deps,
        { ...evidenceKeys.evidence(worker.client_id, v.id), entity: 'evidence', ...item, ttl: retention.ttl },
        { expression: 'attribute_not_exists(pk)' },
      ),
    ),
    head: { evidence_head: item.sha256, evidence_seq: seq },
    object: { key: item.object_key, body: Buffer.from(body, 'utf8'), retainUntil: new Date(retention.retention_until) },
  };
}

export function toEvidenceView(e: EvidenceItem, timeZone: string) {
  return {
    id: e.id,
    worker_id: e.worker_id,
    verification_id: e.verification_id,
    seq: e.seq,
    size_bytes: e.size_bytes,
    captured_at: formatWithOffset(e.captured_at, timeZone),
    retention_until: formatWithOffset(e.retention_until, timeZone),
    simulated: e.simulated,
    source: e.source,
    formats: ['pdf', 'json'],
    sha256: e.sha256,
    prev_sha256: e.prev_sha256,
  };
}
export type EvidenceView = ReturnType<typeof toEvidenceView>;

async function requireEvidence(deps: Deps, clientId: string, id: number): Promise<EvidenceItem> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: evidenceKeys.evidence(clientId, id), ConsistentRead: true }));
  // Past its retention it is gone, whether or not TTL has removed the item yet.
  if (!Item || !retained(Item as EvidenceItem, deps.clock())) throw new DomainError('not-found', `No evidence ${id}`);
  return Item as EvidenceItem;
}

export const getEvidence = async (deps: Deps, clientId: string, id: number): Promise<EvidenceView> =>
  toEvidenceView(await requireEvidence(deps, clientId, id), deps.config.serviceTimeZone);

/** GET /evidence: newest first, by worker and capture day. */
export function listEvidence(
  deps: Deps,
  clientId: string,
  q: { worker_id?: number; from?: string; to?: string; limit: number; cursor?: string },
): Promise<Page<EvidenceView>> {
  const tz = deps.config.serviceTimeZone;
  const now = deps.clock();
  return queryFilteredPage(deps, { pk: clientKeys.partition(clientId), prefix: evidenceKeys.prefix(), limit: q.limit, cursor: q.cursor }, (item) => {
    const e = item as unknown as EvidenceItem;
    const day = wallClock(new Date(e.captured_at), tz).date;
    if (!retained(e, now) || (q.worker_id && e.worker_id !== q.worker_id) || (q.from && day < q.from) || (q.to && day > q.to)) return undefined;
    return toEvidenceView(e, tz);
  });
}

/** The record's stored bytes, if they still hash to its recorded SHA-256; undefined if missing or changed. */
async function storedBytes(deps: Deps, e: EvidenceItem): Promise<Buffer | undefined> {
  const bytes = await evidenceStore(deps).get(e.object_key);
  return bytes && sha256Of(bytes) === e.sha256 ? bytes : undefined;
}

/** The record and its bytes after re-hashing them: a record whose bytes no longer match its hash is never served. */
async function verifiedBody(deps: Deps, clientId: string, id: number): Promise<EvidenceItem & { body: string }> {
  const e = await requireEvidence(deps, clientId, id);
  const bytes = await storedBytes(deps, e);
  if (!bytes) throw new DomainError('evidence-integrity', `Evidence ${id} does not match its recorded hash; it is not served`, { evidence_id: id });
  return { ...e, body: bytes.toString('utf8') };
}

/** The exact JSON and its digest (RFC 9530 `Repr-Digest`). */
export async function evidenceJson(deps: Deps, clientId: string, id: number): Promise<{ body: Buffer; digest: string }> {
  const e = await verifiedBody(deps, clientId, id);
  const body = Buffer.from(e.body, 'utf8');
  return { body, digest: `sha-256=:${createHash('sha256').update(body).digest('base64')}:` };
}

/** The PDF: deterministic for a record, with both hashes, and a banner on each page when the register was simulated. */
export async function evidencePdf(deps: Deps, clientId: string, id: number): Promise<Buffer> {
  const e = await verifiedBody(deps, clientId, id);
  const record = JSON.parse(e.body) as {
    query: Record<string, string>;
    result: Record<string, unknown> | null;
    outcome: string | null;
    reasons: { detail: string }[];
    trigger: string;
  };
  const banner = e.simulated
    ? { text: 'SIMULATED REGISTER: not a real register answer', style: { weight: 'bold' as const, size: 12, color: '#b00' } }
    : undefined;
  const doc = new TextDocument(
    { ...A4, margin: 56 },
    {
      title: `Evidence ${e.id}`,
      author: 'Agency API',
      subject: `Register check ${e.verification_id}`,
      creator: 'Agency API',
      created: new Date(e.captured_at),
    },
    banner,
  );
  const line = (label: string, value: unknown) =>
    doc.text(`${label}: ${value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value)}`, {
      weight: 'regular',
      size: 10,
      color: '#000',
    });
  doc.text(`Registration check evidence ${e.id}`, { weight: 'bold', size: 18, color: '#000' }).moveDown(0.8);
  line('Worker', `${record.query.first_name} ${record.query.last_name} (worker ${e.worker_id})`);
  line('Register and number', `${(record.query.register ?? '').toUpperCase()} ${record.query.number}`);
  line('Captured at', formatWithOffset(e.captured_at, deps.config.serviceTimeZone));
  line('Trigger', record.trigger);
  line('Source', `${e.source.adapter} ${e.source.adapter_version} (${e.source.mode})`);
  doc.moveDown(0.8);
  const r = record.result ?? {};
  line('Found', r.found);
  line('Name on register', r.name_on_register);
  line('Status (as the register words it)', r.status_text);
  line('Expires on', r.expires_on);
  line('Outcome', record.outcome);
  for (const reason of record.reasons) line('Reason', reason.detail);
  doc.moveDown(0.8);
  line('Chain position', e.seq);
  line('SHA-256 of this record', e.sha256);
  line('SHA-256 of the record before', e.prev_sha256 ?? 'none (first record)');
  line('Kept until', e.retention_until.slice(0, 10));
  doc.moveDown(0.8).text('The JSON of this record (Accept: application/json) hashes to the SHA-256 above.', { weight: 'regular', size: 8, color: '#555' });
  return doc.toBuffer();
}

export interface BrokenLink {
  client_id: string;
  worker_id: number;
  evidence_id: number;
  seq: number;
  problem: string;
}

/**
 * Walks a client's chains in order; the first link that does not hold, or null.
 * Records past their retention are left out: a chain whose oldest records
 * went starts at the oldest record kept, whose link back cannot be checked.
 */
export async function verifyChains(deps: Deps, clientId: string): Promise<{ records: number; broken: BrokenLink | null }> {
  const now = deps.clock();
  const items = (
    (await queryAll(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':p': evidenceKeys.prefix() },
      ConsistentRead: true,
    })) as unknown as EvidenceItem[]
  ).filter((e) => retained(e, now));
  const byWorker = new Map<number, EvidenceItem[]>();
  for (const e of items) byWorker.set(e.worker_id, [...(byWorker.get(e.worker_id) ?? []), e]);
  for (const [workerId, chain] of [...byWorker].sort(([a], [b]) => a - b)) {
    chain.sort((a, b) => a.seq - b.seq);
    let prev: string | null = chain[0]!.seq > 1 ? chain[0]!.prev_sha256 : null;
    for (const e of chain) {
      const at = (problem: string) => ({ records: items.length, broken: { client_id: clientId, worker_id: workerId, evidence_id: e.id, seq: e.seq, problem } });
      const bytes = await storedBytes(deps, e);
      if (!bytes) return at('its stored bytes are missing or do not match its recorded SHA-256');
      const body = JSON.parse(bytes.toString('utf8')) as { seq: number; prev_sha256: string | null };
      if (body.prev_sha256 !== prev || e.prev_sha256 !== prev)
        return at(`it names ${body.prev_sha256 ?? 'no record'} as the record before, which is ${prev ?? 'none'}`);
      if (body.seq !== e.seq) return at(`its body says position ${body.seq}`);
      prev = e.sha256;
    }
  }
  return { records: items.length, broken: null };
}
